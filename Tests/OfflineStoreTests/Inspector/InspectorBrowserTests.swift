import Foundation
import OfflineStore
import Testing

/// `offline-store inspect` against a store synced with the real Kinto, driven in headless
/// Chromium: list and search objects, open one and see its queue entries (with an edit seen
/// folding into them), follow a change made by another process, resolve a conflict field
/// by field (after a bad value is refused on the page), flush from the page, and find the
/// merged record on the Kinto server. And a rejected edit: shown with the server's answer,
/// untouchable read-only, discarded from the page with writes allowed.
@Suite("Inspector in a browser", .serialized)  // one Chromium at a time on a 2-core machine
struct InspectorBrowserTests {
    /// Where the screenshots go: `$INSPECTOR_SCREENSHOTS`, else the temporary directory.
    static var screenshotDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["INSPECTOR_SCREENSHOTS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return FileManager.default.temporaryDirectory
    }

    static func save(_ png: Data, _ name: String) throws {
        let url = screenshotDirectory.appendingPathComponent(name)
        try png.write(to: url)
        print("inspector screenshot: \(url.path)")
    }

    /// Objects ids in the collection view's rows.
    static func rowIDs(_ browser: WebDriver) async throws -> [String] {
        let ids = try await browser.execute(
            "return [...document.querySelectorAll('#objects tr.object-row')].map(r => r.dataset.id)")
        return (ids.arrayValue ?? []).compactMap(\.stringValue)
    }

    @Test(.liveServer) func listOpenResolveFieldByFieldFlushAndFindTheMergeOnKinto() async throws {
        try await CLIWorkspace.with { workspace in
            let a = try await workspace.store("a").initialise()
            let b = try await workspace.store("b").initialise()
            try await a.expect(0, "create", "todos", #"{"title":"Buy milk","done":false,"qty":1,"note":"2%"}"#, "--id", "milk")
            try await a.expect(0, "create", "todos", #"{"title":"Eggs","done":false}"#, "--id", "eggs")
            try await a.expect(0, "sync")
            try await b.expect(0, "sync")
            try await b.expect(0, "update", "todos", "milk", #"{"title":"Buy whole milk","note":"organic"}"#, "--merge")
            try await b.expect(0, "sync")
            try await a.expect(0, "update", "todos", "milk", #"{"title":"Buy oat milk","qty":2}"#, "--merge")
            try await a.expect(0, "update", "todos", "milk", #"{"done":true}"#, "--merge")
            try await a.expect(4, "flush")  // milk is conflicted now
            try await a.expect(0, "create", "todos", #"{"title":"Bread"}"#, "--id", "bread")

            let inspector = try await InspectorProcess.start(a, allowWrites: true)
            do {
                try await HeadlessBrowser.with(in: workspace.directory.url) { browser in
                    try await Self.drive(browser, inspector: inspector, store: a)
                }
            } catch {
                _ = try? await inspector.stop()
                throw error
            }
            let stopped = try await inspector.stop()
            #expect(stopped.status == 0, "\(stopped)")

            // On the server: the merged record, and the objects queued meanwhile.
            let milk = try #require(try await kintoRecord(bucket: workspace.bucket, collection: "todos", id: "milk"))
            #expect(milk["title"] == "Buy oat and whole milk")
            #expect(milk["qty"] == 1)          // taken from the server
            #expect(milk["done"] == true)      // the local edit
            #expect(milk["note"] == "organic") // the server's edit
            #expect(try await kintoRecord(bucket: workspace.bucket, collection: "todos", id: "bread")?["qty"] == 3)
            #expect(try await kintoRecord(bucket: workspace.bucket, collection: "todos", id: "jam")?["title"] == "Jam")
            #expect(try await a.queue().isEmpty)
        }
    }

    static func drive(_ browser: WebDriver, inspector: InspectorProcess, store a: CLIStore) async throws {
        // Overview: the collection and its counts.
        try await browser.navigate(inspector.url)
        try await browser.wait(for: "the todos row") { try await !browser.findAll("tr.collection-row[data-name=todos]").isEmpty }
        let counts = try await browser.execute("""
            const r = document.querySelector('tr.collection-row[data-name=todos]');
            return ['synced','pending','conflicted','failed','total'].map(k => r.querySelector('td.' + k).textContent)
            """)
        #expect(counts == ["1", "1", "1", "0", "3"])
        let version = try await browser.execute("""
            return document.querySelector('tr.collection-row[data-name=todos] td.schema-version').textContent
            """)
        #expect(version == "v1")
        #expect(try await browser.text("#mode") == "writes allowed")
        try save(try await browser.screenshot(), "inspector-overview.png")

        // The object browser: list, search by id, search by field.
        try await browser.click("a[href='#/c/todos']")
        try await browser.wait(for: "the object list") { try await rowIDs(browser) == ["bread", "eggs", "milk"] }
        try await browser.type("#search-id", "egg")
        try await browser.click("#search-go")
        try await browser.wait(for: "the id search") { try await rowIDs(browser) == ["eggs"] }
        try await browser.type("#search-id", "")
        try await browser.type("#search-field", "title")
        try await browser.type("#search-value", "Bread")
        try await browser.click("#search-go")
        try await browser.wait(for: "the field search") { try await rowIDs(browser) == ["bread"] }

        // Another process changes the store: the page follows without a reload.
        try await browser.navigate(inspector.url + "#/c/todos")
        try await browser.wait(for: "the full list") { try await rowIDs(browser) == ["bread", "eggs", "milk"] }
        try await a.expect(0, "create", "todos", #"{"title":"Jam"}"#, "--id", "jam")
        try await a.expect(0, "update", "todos", "bread", #"{"qty":3}"#, "--merge")
        try await browser.wait(for: "jam to appear live") { try await rowIDs(browser) == ["bread", "eggs", "jam", "milk"] }

        // One object: its copies and its queue entry, with the later edit folded into the create.
        try await browser.click("tr.object-row[data-id=bread] a")
        try await browser.wait(for: "bread's queue entry, coalesced") {
            let folded = try await browser.execute(
                "const r = document.querySelector('#object-queue tr.queue-row'); return r ? [r.dataset.kind, r.dataset.folded] : null")
            return folded == ["create", "1"]
        }
        #expect(try await browser.text("#copy-local").contains("\"qty\": 3"))
        try save(try await browser.screenshot(), "inspector-object.png")
        #expect(try await browser.text("#copy-server").contains("(none)"))

        // The conflict, field by field.
        try await browser.navigate(to: "#nav-conflicts", until: "tr.conflict-row[data-id=milk]", what: "the conflict list")
        try await browser.click("tr.conflict-row[data-id=milk] a")
        try await browser.wait(for: "the field table") { try await browser.findAll("#fields tr.field-row").count == 4 }
        let changes = try await browser.execute(
            "return [...document.querySelectorAll('#fields tr.field-row')].map(r => r.dataset.field + ':' + r.className)")
        #expect(changes == ["done:field-row change-local", "note:field-row change-server", "qty:field-row change-local",
                            "title:field-row change-both"])
        try await browser.click("input[type=radio][data-field=qty][value=server]")
        try await browser.type("input.edit-value[data-field=title]", "oat and whole")  // not JSON: refused
        try await browser.click("#resolve-fields")
        try await browser.wait(for: "the refusal on the page") {
            try await browser.findAll("#message.error").count == 1
        }
        #expect(try await browser.text("#message").contains("field 'title': the edited value is not valid JSON"))
        #expect(try await a.expect(0, "conflicts").json().arrayValue?.count == 1)  // nothing changed

        try await browser.type("input.edit-value[data-field=title]", #""Buy oat and whole milk""#)
        try save(try await browser.screenshot(), "inspector-conflict.png")
        try await browser.click("#resolve-fields")
        try await browser.wait(for: "the resolution") { try await browser.findAll("#message.ok").count == 1 }
        #expect(try await a.expect(0, "conflicts").json() == [])
        let resolved = try await a.expect(0, "get", "todos", "milk").json()
        #expect(resolved == ["id": "milk", "title": "Buy oat and whole milk", "qty": 1, "done": true, "note": "organic"])

        // A link clicked while the previous view is still rendering: the page ends on the
        // last one (a render asked for during another used to be dropped).
        _ = try await browser.execute("""
            document.getElementById('nav-conflicts').click();
            setTimeout(() => document.getElementById('nav-overview').click(), 0);
            return true
            """)
        try await browser.wait(for: "the overview after two quick clicks") {
            try await browser.execute("return location.hash + ' ' + document.getElementById('view').dataset.view") == "#/ overview"
        }

        // Flush from the page, with its progress in the status line.
        try await browser.navigate(to: "#nav-overview", until: "#run-flush", what: "the flush button")
        try await browser.click("#run-flush")
        try await browser.wait(for: "the flush to finish", timeout: .seconds(60)) {
            try await browser.execute("return document.getElementById('run-status').dataset.state") == "finished"
        }
        #expect(try await browser.text("#run-status").contains("pushed 3"))
        try await browser.wait(for: "the counts after the flush") {
            let conflicts = try await browser.text("#nav-conflicts")
            let queue = try await browser.text("#nav-queue")
            return conflicts == "Conflicts (0)" && queue == "Queue (0)"
        }
    }

    @Test(.liveServer) func aRejectedCreateIsShownWithTheServersAnswerAndDiscardedFromThePage() async throws {
        try await CLIWorkspace.with { workspace in
            // bob syncs in alice's bucket; alice then withdraws his write access, so his edit of
            // her record is refused (403): a forbidden failed entry beside the rejected one.
            let base = try #require(URL(string: try CLIKinto.url()))
            let alice = SharingKintoTests.KintoUser(name: "alice", base: base)
            let bobID = try await SharingKintoTests.KintoUser(name: "bob", base: base).id()
            let todos = "/buckets/\(workspace.bucket)/collections/todos"
            try await alice.put("/buckets/\(workspace.bucket)", ["data": [:]])
            try await alice.put(todos, ["permissions": ["write": [.string(bobID)]]])
            try await alice.put("\(todos)/records/theirs", ["data": ["title": "alice's"]])
            let store = try await workspace.store().initialise(extra: ["--user", "bob", "--password-env", "CLI_PASSWORD"])
            try await store.expect(0, "create", "todos", #"{"title":"Bad"}"#, "--id", "bad")
            try CLIFailedEntryTests.makeServerRefuse(store, "bad")  // Kinto answers 400
            try await store.expect(4, "sync")
            try await alice.put(todos, ["permissions": ["read": [.string(bobID)]]])
            try await store.expect(0, "update", "todos", "theirs", #"{"title":"bob's"}"#, "--merge")
            try await store.expect(4, "flush")

            // Read-only: the entry and the server's answer are there, the actions are not.
            let readOnly = try await InspectorProcess.start(store, allowWrites: false)
            do {
                try await HeadlessBrowser.with(in: workspace.directory.url) { browser in
                    try await browser.navigate(readOnly.url + "#/failed")
                    try await browser.wait(for: "the failed entry") { try await !browser.findAll("tr.failed-row[data-id=bad]").isEmpty }
                    #expect(try await browser.text("#mode") == "read-only")
                    #expect(try await browser.text("tr.failed-row[data-id=bad]").contains("HTTP 400"))
                    // The kind of each failed entry: only the 403 is labelled forbidden.
                    #expect(try await browser.text("tr.failed-row[data-id=theirs] span.forbidden").trimmingCharacters(in: .whitespaces) == "forbidden")
                    #expect(try await browser.findAll("tr.failed-row[data-id=bad] span.forbidden").isEmpty)
                    let disabled = try await browser.execute(
                        "return [...document.querySelectorAll('tr.failed-row button')].every(b => b.disabled)")
                    #expect(disabled == true)
                }
            } catch {
                _ = try? await readOnly.stop()
                throw error
            }
            #expect(try await readOnly.stop().status == 0)

            let inspector = try await InspectorProcess.start(store, allowWrites: true)
            do {
                try await HeadlessBrowser.with(in: workspace.directory.url) { browser in
                    try await browser.navigate(inspector.url + "#/failed")
                    try await browser.wait(for: "the failed entry") { try await !browser.findAll("tr.failed-row[data-id=bad]").isEmpty }
                    let actions = try await browser.execute(
                        "return [...document.querySelectorAll('tr.failed-row[data-id=bad] button')].map(b => b.dataset.action)")
                    #expect(actions == ["discard", "retry"])
                    try Self.save(try await browser.screenshot(), "inspector-failed.png")
                    try await browser.click("tr.failed-row[data-id=bad] button[data-action=discard]")
                    try await browser.wait(for: "the discard") { try await browser.findAll("tr.failed-row[data-id=bad]").isEmpty }
                    #expect(try await browser.text("#message").contains("todos/bad: discard done"))
                }
            } catch {
                _ = try? await inspector.stop()
                throw error
            }
            #expect(try await inspector.stop().status == 0)
            try await store.expect(3, "get", "todos", "bad")
            #expect(try await store.queue().compactMap { $0["id"]?.stringValue } == ["theirs"])
        }
    }
}
