import Foundation
import GRDB
import Testing
@testable import OfflineStore

/// The invariants of SPEC §11 for the sync workload on a server that assigns ids (the Rails
/// test app's `customers` with `crash-writer --backend rest`, the OData fixture's `Customers`
/// with `--backend odata`; see `Tests/CrashWriter/WorkloadLayout.swift`). Items are matched
/// by their name field, `"<scope> item-3"`, and the email field carries
/// `c<counter>.k<created>@workload.invalid`. Two live objects with one name, locally or on
/// the server, are a duplicate (a resent create the server applied twice).
struct NamedWorkloadCheck {
    typealias Model = ObjectStoreCrashTests.Model
    typealias Item = ObjectStoreCrashTests.Item

    /// What differs between the servers: names, the backend, and how the server is listed.
    struct Kind: Sendable {
        /// The collection and its name and email fields.
        var collection: String
        var nameField: String
        var emailField: String
        /// The arguments that pick the backend in `crash-writer`.
        var writerArguments: [String]
        /// The direct backend the check syncs with, for the server at a URL.
        var backend: @Sendable (URL) -> any Backend
        /// Every live record of the collection on the server at a URL whose name starts with a prefix.
        var records: @Sendable (URL, String) async throws -> [JSONValue]
    }

    /// The server (direct, no faults), the scope of this run's items, and the server's kind.
    let server: URL
    let scope: String
    let kind: Kind

    /// The direct backend the check syncs with.
    func backend() -> any Backend { kind.backend(server) }

    /// Reads objects (local values or server records) of this scope into a model keyed by
    /// item name; returns it and how many names appear twice.
    func model(of objects: [JSONValue]) throws -> (Model, Int) {
        var model: Model = [:]
        var twice = 0
        for object in objects {
            guard let name = object[kind.nameField]?.stringValue, name.hasPrefix(scope + " ") else { continue }
            let email = try #require(object[kind.emailField]?.stringValue)
            let parts = email.dropFirst().split(separator: "@")[0].split(separator: ".k")
            let item = Item(counter: try #require(Int64(parts[0])), created: try #require(Int64(parts[1])))
            let key = String(name.dropFirst(scope.count + 1))
            if model[key] != nil { twice += 1 }
            model[key] = item
        }
        return (model, twice)
    }

    /// Opens the store after a run; checks integrity and the local objects against the
    /// model (as `WorkloadCheck.checkLocal`). Returns the model the store holds.
    ///
    /// An item whose create was sent but not answered (a kill or a fault took the answer)
    /// may show twice until the resent create folds the copies together (a refresh pulled
    /// the record Rails made, and the workload may have edited either copy): such items are
    /// left to the check after quiescence, which allows no duplicate.
    func checkLocal(storePath: String, model: Model, run: WorkloadTranscript, tally: inout ReliabilityTally,
                    context: String) throws -> Model {
        let store = try WorkloadDriver.openChecked(storePath, context: context)
        defer { try? store.close() }
        try store.register(CollectionDescriptor(kind.collection))
        let customers = store.collection(kind.collection)
        // What those creates sent names them, even when the object was deleted here since.
        let sent = try store.local.read("reading sent creates") { db in
            try String.fetchAll(db, sql: "SELECT sent_data FROM queue WHERE collection = ? AND kind = 'create' AND attempts > 0 AND sent_data IS NOT NULL",
                                arguments: [kind.collection])
        }
        let unsettled = Set(try self.model(of: sent.map { try JSONValue(parsing: $0) }).0.keys)
        let acknowledged = run.acks.reduce(model) { $1.applied(to: $0) }
        let (stored, _) = try self.model(of: customers.findAll())
        let actual = stored.filter { !unsettled.contains($0.key) }
        tally.editsChecked += run.acks.count
        func settled(_ model: Model) -> Model { model.filter { !unsettled.contains($0.key) } }
        if actual == settled(acknowledged) { return acknowledged }
        if let edit = run.inProgress, actual == settled(edit.applied(to: acknowledged)) { return edit.applied(to: acknowledged) }
        let wrong = Set(settled(acknowledged).keys).union(actual.keys).filter { actual[$0] != acknowledged[$0] }
        tally.lost += wrong.count
        Issue.record("\(context): acknowledged edits lost for \(wrong.sorted()): stored \(actual), acknowledged \(acknowledged)")
        return acknowledged
    }

    /// Syncs directly until the queue is empty (false conflicts counted and settled with
    /// keepLocal, as on Kinto), then compares the store, the server and the model.
    func quiesceAndCompare(storePath: String, model: Model, tally: inout ReliabilityTally, context: String) async throws {
        let store = try ObjectStore(path: storePath, backend: backend())
        defer { try? store.close() }
        try store.register(CollectionDescriptor(kind.collection))
        var stops: [String] = []
        for round in 0..<8 {
            do { _ = try await store.sync() } catch let stop as OfflineStoreError where stop.report != nil { stops.append("\(stop)"); continue }
            for conflict in try store.conflicts() where round < 7 {
                tally.falseConflicts += 1
                try store.resolve(conflict.collection, id: conflict.id, with: .keepLocal)
            }
            // A send answered 500 on its third attempt or later is rejected by design
            // (Docs/Backends.md: a payload the server fails on every time must not block the
            // queue); the proxy's 5xx bursts answer up to four requests in a row, so an edit
            // may end there. It is kept as a failed entry, and `retry` is the app's answer.
            for entry in try store.queueEntries() where entry.state == .failed && entry.status == 500 && round < 7 {
                try store.retry(entry.collection, id: entry.objectID)
            }
            if try store.queueCount() == 0 && store.conflicts().isEmpty { break }
        }
        let entries = try store.queueEntries().map { "\($0.objectID) \($0.kind) \($0.state) attempts \($0.attempts)" }
        let conflicts = try store.conflicts().map(\.id)
        #expect(entries.isEmpty && conflicts.isEmpty, "\(context): after quiescence, entries \(entries), conflicts \(conflicts), sync stops \(stops)")
        let (local, localTwice) = try self.model(of: store.collection(kind.collection).findAll())
        let (remote, remoteTwice) = try await serverModel()
        tally.duplicated += localTwice + remoteTwice
        for id in Set(model.keys).union(remote.keys).union(local.keys) {
            if let expected = model[id] {
                if local[id] != expected || remote[id] != expected { tally.lost += 1 }
            } else if remote[id] != nil {
                tally.duplicated += 1  // live on the server although its deletion was acknowledged
            }
            if local[id] != remote[id] { tally.missed += 1 }
        }
        #expect(local == model && remote == model && localTwice + remoteTwice == 0,
                "\(context): after quiescence\n local  \(local)\n server \(remote)\n model  \(model)")
    }

    /// The live items of this scope on the server, and how many names appear twice.
    func serverModel() async throws -> (Model, Int) {
        try model(of: await kind.records(server, scope + " "))
    }
}

extension NamedWorkloadCheck.Kind {
    /// The Rails test app's customers through `RESTBackend`.
    static let rails = Self(
        collection: "customers", nameField: "name", emailField: "email", writerArguments: ["--backend", "rest"],
        backend: { url in
            RESTBackend(configuration: .init(baseURL: url, resources: ["customers": RESTResource(path: "/customers", wrapKey: "customer")],
                                             timeout: .seconds(20)))
        },
        records: { _, prefix in
            var records: [JSONValue] = []
            for page in 1... {
                let (status, json) = try await RailsServer.request("GET", "/customers.json?per_page=\(RailsServer.maxPerPage)&page=\(page)")
                let rows = try #require(json?.arrayValue, "listing customers: HTTP \(status)")
                records += rows
                if rows.count < RailsServer.maxPerPage { break }
            }
            return records.filter { $0["name"]?.stringValue?.hasPrefix(prefix) == true }
        })

    /// The OData fixture's Customers through `ODataBackend`, as its writer.
    static let odata = Self(
        collection: "Customers", nameField: "Name", emailField: "Email", writerArguments: ["--backend", "odata"],
        backend: { url in
            ODataBackend(configuration: .init(serviceRoot: url, headers: ["Authorization": ODataServer.authorization("writer")],
                                              timeout: .seconds(20)))
        },
        records: { url, prefix in
            // The fixture behind `url` is read directly (the check's URL is the fixture's, never the proxy's).
            var records: [JSONValue] = []
            let filter = "startswith(Name,'\(prefix.replacingOccurrences(of: "'", with: "''"))')"
            var target = url.absoluteString + "/Customers?$filter=" + (filter.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            while true {
                guard let address = URL(string: target) else { throw ODataServer.NotConfigured(variable: "a URL for \(target)") }
                let response = try await URLSessionTransport(followingRedirects: false).send(HTTPRequest(
                    method: "GET", url: address, headers: [("Accept", "application/json"), ("Authorization", ODataServer.authorization("writer"))],
                    body: nil, timeout: .seconds(60)))
                let page = try JSONValue(parsing: response.body)
                records += try #require(page["value"]?.arrayValue, "listing Customers: HTTP \(response.status)")
                guard let next = page["@odata.nextLink"]?.stringValue else { return records }
                target = next
            }
        })
}
