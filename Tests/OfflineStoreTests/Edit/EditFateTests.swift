import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// What an edit's error says became of it (`dataFate`) is what the store holds: in every
/// write mode, under both update policies, for a server that is down, that fails, and that
/// rejects the edit. A new object is saved, so "not stored" means no row and no queue entry.
@Suite("An edit's error tells what became of it", .timeLimit(.minutes(2)))
struct EditFateTests {
    enum ServerTrouble: String, CaseIterable, Sendable { case down, failing, rejecting }

    static let cases: [(WriteMode, UpdatePolicy, ServerTrouble)] =
        [WriteMode.immediate, .awaitingServer, .deferred].flatMap { mode in
            [UpdatePolicy.queueIfOffline, .updateIfOnline].flatMap { policy in ServerTrouble.allCases.map { (mode, policy, $0) } }
        }

    @Test(arguments: cases)
    func theFateIsWhatTheStoreHolds(mode: WriteMode, policy: UpdatePolicy, trouble: ServerTrouble) async throws {
        let backend = InMemoryBackend()
        switch trouble {
        case .down: backend.inject(.offline, times: .max)
        case .failing: backend.inject(.status(500).only(.push), times: .max)
        case .rejecting: backend.inject(.rejectOperation(id: "n", status: 422, body: #"{"title":["is too short"]}"#))
        }
        try await withTemporaryStore(configuration: .with { $0.writeMode = mode }, backend: backend,
                                     collections: [CollectionDescriptor("todos")]) { store in
            let error: OfflineStoreError?
            do {
                try await store.collection("todos").save(["id": "n", "title": "x"], policy: policy)
                error = nil
            } catch let thrown as OfflineStoreError {
                error = thrown
            }
            let row = try store.collection("todos").object("n")
            let entries = try store.queueEntries(id: "n")
            guard let error else {
                // No error: the edit is stored (queued, or on the server).
                #expect(row != nil, "a call that returned stored its edit")
                return
            }
            #expect(error.recoverySuggestion == RecoverySuggestion.text(for: error.code, fate: error.dataFate, pendingEdits: nil))
            let place = "\(mode) / \(policy) / \(trouble): \(error)"
            switch error.dataFate {
            case .notStored:
                #expect(row == nil && entries.isEmpty, "not stored, yet the store holds it: \(place)")
            case .storedAndQueued:
                #expect(row != nil && entries.contains { $0.state == .pending }, "\(place)")
            case .storedAndHeld:
                #expect(row != nil && (entries.contains { $0.state == .failed } || row?.state == .conflicted), "\(place)")
            default:
                Issue.record("unexpected fate \(error.dataFate): \(place)")
            }
            // Under updateIfOnline an edit the server did not take is undone (Docs/Policies.md).
            if policy == .updateIfOnline { #expect(error.dataFate == .notStored, "\(place)") }
        }
    }
}
