import Foundation
import GRDB
import Testing
@testable import OfflineStore

/// The invariants of SPEC §11, checked after a run of the sync workload:
/// every acknowledged edit is in the store (the edit in progress all there or not at all),
/// the file passes `PRAGMA integrity_check`, and after a sync to quiescence the server
/// holds exactly what the store holds, each object once.
struct WorkloadCheck {
    typealias Model = ObjectStoreCrashTests.Model
    typealias Item = ObjectStoreCrashTests.Item

    /// The Kinto (direct, no faults) and bucket the workload syncs with.
    let server: URL
    let bucket: String

    /// Opens the store after a run; checks integrity and the local objects against the
    /// model. Returns the model the store holds (acknowledged, plus the edit in progress
    /// if it committed) and counts what is lost into `tally`.
    func checkLocal(storePath: String, model: Model, run: WorkloadTranscript, tally: inout ReliabilityTally,
                    context: String) throws -> Model {
        let store = try WorkloadDriver.openChecked(storePath, context: context)
        defer { try? store.close() }
        let acknowledged = run.acks.reduce(model) { $1.applied(to: $0) }
        let actual = try ObjectStoreCrashTests.actualModel(store)
        tally.editsChecked += run.acks.count
        if actual == acknowledged { return acknowledged }
        if let edit = run.inProgress, actual == edit.applied(to: acknowledged) { return actual }
        let wrong = Set(acknowledged.keys).union(actual.keys).filter { actual[$0] != acknowledged[$0] }
        tally.lost += wrong.count
        Issue.record("\(context): acknowledged edits lost for \(wrong.sorted()): stored \(actual), acknowledged \(acknowledged)")
        return acknowledged
    }

    /// Syncs the store directly with the server until its queue is empty (at most
    /// `attempts` syncs), then compares server and store; counts into `tally`.
    func quiesceAndCompare(storePath: String, model: Model, tally: inout ReliabilityTally, context: String) async throws {
        let backend = KintoServer.backend(server: server, bucket: bucket, pageSize: 10_000)
        let store = try ObjectStore(path: storePath, backend: backend)
        defer { try? store.close() }
        var stops: [String] = []
        for round in 0..<8 {
            do { _ = try await store.sync() } catch let stop as OfflineStoreError where stop.report != nil { stops.append("\(stop)"); continue }
            // A conflict keeps the acknowledged edit as its local copy (SPEC §11 allows that);
            // with no other writer it is a false conflict: counted, then settled with keepLocal.
            for conflict in try store.conflicts() where round < 7 {
                let local = try conflict.local.map { value in
                    Item(counter: try #require(value["counter"]?.intValue), created: try #require(value["created"]?.intValue))
                }
                if local != model[conflict.id] { tally.lost += 1 }
                tally.falseConflicts += 1
                try store.resolve(conflict.collection, id: conflict.id, with: .keepLocal)
            }
            if try store.queueCount() == 0 { break }
        }
        let entries = try store.queueEntries().map { "\($0.objectID) \($0.kind) \($0.state) attempts \($0.attempts)" }
        let conflicts = try store.conflicts().map { c in
            "\(c.id): base \(c.base?.serialized() ?? "nil"), local \(c.local?.serialized() ?? "nil"), "
                + "server \(c.server?.serialized() ?? "nil") @\(c.serverVersion ?? "nil")"
        }
        #expect(entries.isEmpty && conflicts.isEmpty,
                "\(context): after quiescence, entries \(entries), conflicts \(conflicts), sync stops \(stops)")
        let local = try ObjectStoreCrashTests.actualModel(store)
        let (remote, listedTwice) = try await serverModel()
        tally.duplicated += listedTwice
        for id in Set(model.keys).union(remote.keys).union(local.keys) {
            if let expected = model[id] {
                if local[id] != expected || remote[id] != expected { tally.lost += 1 }
            } else if remote[id] != nil {
                tally.duplicated += 1  // on the server although its deletion was acknowledged
            }
            if local[id] != remote[id] { tally.missed += 1 }
        }
        #expect(local == model && remote == model,
                "\(context): after quiescence\n local  \(local)\n server \(remote)\n model  \(model)")
    }

    /// The server's records of "items" as the model sees them, and how many ids it lists twice.
    func serverModel() async throws -> (Model, Int) {
        let url = server.appendingPathComponent("buckets/\(bucket)/collections/items/records")
        let auth = "Basic " + Data("alice:secret".utf8).base64EncodedString()
        let response = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: url, headers: [("Authorization", auth)]))
        if response.status == 403 || response.status == 404 { return ([:], 0) }  // never flushed: no bucket yet
        guard response.status == 200, let records = try JSONValue(parsing: response.body)["data"]?.arrayValue else {
            throw HarnessError("listing \(bucket)/items: HTTP \(response.status)")
        }
        var model: Model = [:]
        var twice = 0
        for record in records {
            let id = try #require(record["id"]?.stringValue)
            if model[id] != nil { twice += 1 }
            model[id] = Item(counter: try #require(record["counter"]?.intValue), created: try #require(record["created"]?.intValue))
        }
        return (model, twice)
    }
}
