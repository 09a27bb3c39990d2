import Foundation
import Testing
@testable import OfflineStore

/// Refresh by a changed-since property (`ModifiedAt`) against the fixture's plain mode (no
/// change tracking, pages of 5): another store's writes arrive by incremental pulls that read
/// only what changed, deletions are found on the scheduled full pull and not before, writes
/// sharing a millisecond and writes committed with an earlier `ModifiedAt` within the margin
/// arrive. It runs on a plain-mode server of its own (`ODATA_CLOCK_URL`), serialized: two of
/// its tests fix that server's clock for a moment.
@Suite("OData changed-since refresh on the fixture", .serialized, .timeLimit(.minutes(5)))
struct ODataChangedSinceLiveTests {
    let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }
    static let tasks = [CollectionDescriptor("Tasks")]

    /// A backend on the plain service pulling Tasks by `ModifiedAt`.
    static func backend(margin: Duration = .seconds(2), sweepEvery: Int = 10,
                        transport: any HTTPTransport = URLSessionTransport(followingRedirects: false)) throws -> ODataBackend {
        ODataBackend(configuration: .init(
            serviceRoot: try ODataServer.clockURL(), headers: ["Authorization": ODataServer.authorization("writer")],
            entitySets: ["Tasks": ODataEntitySetSettings(changedSince: "ModifiedAt", changedSinceMargin: margin, sweepEvery: sweepEvery)],
            timeout: .seconds(60)), transport: transport)
    }

    /// A backend on the same service without a changed-since property: the other client.
    static func writer() throws -> ODataBackend {
        ODataBackend(configuration: .init(serviceRoot: try ODataServer.clockURL(), headers: ["Authorization": ODataServer.authorization("writer")],
                                          timeout: .seconds(60)))
    }

    /// Fixes the fixture's clock at `ms` (nil: lets it run); returns the clock's time.
    @discardableResult
    static func clock(_ ms: Int64?) async throws -> Int64 {
        let url = try #require(URL(string: "/_fixture/clock", relativeTo: try ODataServer.clockURL())?.absoluteURL)
        let body = JSONValue.object(["ms": ms.map(JSONValue.int) ?? .null])
        let request = HTTPRequest(method: "PUT", url: url, headers: [("Authorization", ODataServer.authorization("writer")),
                                                                     ("Content-Type", "application/json")],
                                  body: Data(body.serialized().utf8), timeout: .seconds(60))
        let response = try await URLSessionTransport(followingRedirects: false).send(request)
        return try #require((try? JSONValue(parsing: response.body))?["ms"]?.intValue, "the fixture's clock answered \(response.status)")
    }

    /// Runs `body` with the fixture's clock fixed at `ms`, and lets it run again whatever happens.
    static func withClock(at ms: Int64, _ body: () async throws -> Void) async throws {
        try await clock(ms)
        do { try await body() } catch {
            try await clock(nil)
            throw error
        }
        try await clock(nil)
    }

    /// The milliseconds of a stored changed-since cursor.
    static func cursorMilliseconds(_ store: ObjectStore) throws -> Int64 {
        let text = try #require(try store.syncEngine.storedCursor(of: "Tasks"))
        let cursor = try #require(ODataChangedSinceCursor(text: text), "a changed-since cursor, not \(text)")
        let instant = try #require(cursor.value?.stringValue.flatMap(ODataDateTimeOffset.init))
        return instant.seconds * 1000 + instant.nanoseconds / 1_000_000
    }

    /// Creates `count` tasks in `store` and flushes them; returns their ids.
    static func create(_ count: Int, in store: ObjectStore, prefix: String) async throws -> [String] {
        var ids: [String] = []
        for _ in 0..<count {
            let created = try await store.collection("Tasks").create(["Title": .string(ODataServer.uniqueTitle(prefix))])
            ids.append(try #require(created["id"]?.stringValue))
        }
        #expect(try await store.flush().pushed == count)
        return ids
    }

    @Test(.liveServer) func anotherStoresWritesArriveByPullsThatReadOnlyWhatChanged() async throws {
        // No margin: the 30 creates just made are not read again for it (the margin has its own test).
        let wire = ODataRecordingTransport()
        try await withTemporaryStore(configuration: deferred, backend: try Self.backend(margin: .zero, transport: wire),
                                     collections: Self.tasks) { a in
            try await withTemporaryStore(configuration: deferred, backend: try Self.writer(),
                                         collections: Self.tasks) { b in
                let ids = try await Self.create(30, in: b, prefix: "since")
                let mine = Set(ids)
                try await a.refresh(collections: ["Tasks"])
                // A full pull: first one page in the service's own order (pages of 5), which shows
                // it gives no delta link, then the whole set by key, and the largest key (where the
                // pull splits in two key ranges).
                #expect((30...36).contains(wire.entities(in: mine)), "the first refresh is a full pull: \(wire.entities(in: mine))")
                #expect(try ids.allSatisfy { try a.collection("Tasks").find($0) != nil })

                // Creates sharing the cursor's millisecond are read again (the pull starts at it, `ge`).
                let cursor = try Self.cursorMilliseconds(a)
                let atCursor = try ids.filter { id in
                    let text = try a.collection("Tasks").find(id)?["ModifiedAt"]?.stringValue
                    return text.flatMap(ODataDateTimeOffset.init).map { $0.seconds * 1000 + $0.nanoseconds / 1_000_000 } == cursor
                }.count
                wire.reset()
                _ = try await b.collection("Tasks").patch(ids[3], ["Notes": "one change"])
                #expect(try await b.flush().pushed == 1)
                try await a.refresh(collections: ["Tasks"])
                #expect(try a.collection("Tasks").find(ids[3])?["Notes"] == "one change")
                let read = wire.entities(in: mine)
                #expect(read >= 1 && read <= 1 + atCursor, "the change and the \(atCursor) at the cursor read, not 30: \(read)")
                #expect(wire.lines.allSatisfy { $0.contains("ModifiedAt ge ") || $0.contains("ModifiedAt gt ") },
                        "every request is filtered: \(wire.lines)")

                // Seven changes: more than a page of 5, paged by (ModifiedAt, ID).
                wire.reset()
                for id in ids[10..<17] { _ = try await b.collection("Tasks").patch(id, ["Notes": "seven"]) }
                #expect(try await b.flush().pushed == 7)
                try await a.refresh(collections: ["Tasks"])
                for id in ids[10..<17] { #expect(try a.collection("Tasks").find(id)?["Notes"] == "seven", "\(id) arrived") }
                #expect(wire.lines.contains { $0.contains(") or (ModifiedAt eq ") }, "a second page by (P, Key): \(wire.lines)")
                #expect(!wire.lines.contains { $0.contains("$skiptoken") }, "never the service's row-offset token")
                #expect(wire.entities(in: mine) < 30)
            }
        }
    }

    @Test(.liveServer) func aDeletionIsFoundOnTheScheduledFullPullAndNotBefore() async throws {
        let wire = ODataRecordingTransport()
        try await withTemporaryStore(configuration: deferred, backend: try Self.backend(sweepEvery: 3, transport: wire),
                                     collections: Self.tasks) { a in
            try await withTemporaryStore(configuration: deferred, backend: try Self.writer(),
                                         collections: Self.tasks) { b in
                let ids = try await Self.create(2, in: b, prefix: "sweep")
                let (gone, kept) = (ids[0], ids[1])
                try await a.refresh(collections: ["Tasks"])  // 1: full (no cursor)
                #expect(try a.collection("Tasks").find(gone) != nil)

                try await b.collection("Tasks").destroy(gone)
                #expect(try await b.flush().pushed == 1)
                for refresh in 2...3 {
                    wire.reset()
                    let report = try await a.refresh(collections: ["Tasks"])
                    #expect(report.swept == 0, "refresh \(refresh) is incremental")
                    #expect(try a.collection("Tasks").find(gone) != nil, "refresh \(refresh) cannot see the deletion")
                    #expect(wire.lines.allSatisfy { $0.contains("ModifiedAt ge ") || $0.contains("ModifiedAt gt ") })
                    if refresh == 2 {
                        _ = try await b.collection("Tasks").patch(kept, ["Notes": "between"])
                        #expect(try await b.flush().pushed == 1)
                    }
                }
                #expect(try a.collection("Tasks").find(kept)?["Notes"] == "between", "the write arrived on refresh 3")

                wire.reset()
                let fourth = try await a.refresh(collections: ["Tasks"])  // 4: the scheduled full pull
                #expect(fourth.swept >= 1)
                #expect(try a.collection("Tasks").find(gone) == nil, "swept on the scheduled full pull")
                #expect(try a.collection("Tasks").find(kept) != nil)
                #expect(wire.lines.first?.contains("ModifiedAt ge") == false, "a full pull by key: \(wire.lines)")
                let stored = try #require(try a.syncEngine.storedCursor(of: "Tasks"))
                let cursor = try #require(ODataChangedSinceCursor(text: stored))
                #expect(cursor.refreshes == 1, "the count starts again")
            }
        }
    }

    @Test(.liveServer) func writesSharingAMillisecondAllArrive() async throws {
        // No margin: only the pull's `ge` and its paging by (ModifiedAt, ID) keep them.
        try await withTemporaryStore(configuration: deferred, backend: try Self.backend(margin: .zero), collections: Self.tasks) { a in
            try await withTemporaryStore(configuration: deferred, backend: try Self.writer(),
                                         collections: Self.tasks) { b in
                _ = try await Self.create(1, in: b, prefix: "ms")
                try await a.refresh(collections: ["Tasks"])
                var first: [String] = [], second: [String] = []
                let now = try await Self.clock(nil)
                try await Self.withClock(at: now) {
                    first = try await Self.create(1, in: b, prefix: "ms")
                    try await a.refresh(collections: ["Tasks"])
                    #expect(try Self.cursorMilliseconds(a) == now, "the cursor is the shared millisecond")
                    // Seven more in that millisecond: more than a page, all at the cursor's value.
                    second = try await Self.create(7, in: b, prefix: "ms")
                }
                try await a.refresh(collections: ["Tasks"])
                for id in first + second { #expect(try a.collection("Tasks").find(id) != nil, "\(id) arrived") }
            }
        }
    }

    @Test(.liveServer) func aWriteCommittedWithAnEarlierModifiedAtWithinTheMarginArrives() async throws {
        try await withTemporaryStore(configuration: deferred, backend: try Self.backend(margin: .seconds(2)), collections: Self.tasks) { a in
            try await withTemporaryStore(configuration: deferred, backend: try Self.writer(),
                                         collections: Self.tasks) { b in
                _ = try await Self.create(1, in: b, prefix: "late")
                try await a.refresh(collections: ["Tasks"])
                let cursor = try Self.cursorMilliseconds(a)
                var late: [String] = []
                // A transaction that took its timestamp a second before the cursor and committed after it.
                try await Self.withClock(at: cursor - 1000) { late = try await Self.create(1, in: b, prefix: "late") }
                try await a.refresh(collections: ["Tasks"])
                #expect(try a.collection("Tasks").find(late[0]) != nil)
                #expect(try Self.cursorMilliseconds(a) >= cursor, "an earlier value never moves the cursor back")
            }
        }
    }
}

/// A transport that keeps every GET's request line and the ids of the entities its answer listed.
final class ODataRecordingTransport: HTTPTransport {
    private let base = URLSessionTransport(followingRedirects: false)
    private let state = Locked<(lines: [String], ids: [String], listings: [(line: String, ids: [String])])>(([], [], []))

    /// "path?query" of every GET of a set since the last reset, decoded.
    var lines: [String] { state.withLock { $0.lines } }

    /// Every GET of a set since the last reset with the ids its answer listed, in the order answered.
    var listings: [(line: String, ids: [String])] { state.withLock { $0.listings } }

    /// How many of the entities listed since the last reset are among `ids` (an entity listed twice counts twice).
    func entities(in ids: Set<String>) -> Int { state.withLock { $0.ids.filter(ids.contains).count } }

    func reset() { state.withLock { $0 = ([], [], []) } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await base.send(request)
        guard request.method == "GET", let query = request.url.query else { return response }
        let listed = (try? JSONValue(parsing: response.body))?["value"]?.arrayValue ?? []
        let line = request.url.path + "?" + (query.removingPercentEncoding ?? query)
        let ids = listed.compactMap { $0["ID"]?.stringValue }
        state.withLock {
            $0.lines.append(line)
            $0.ids += ids
            $0.listings.append((line, ids))
        }
        return response
    }
}
