import Foundation
import GRDB

/// The local-edit engine: the app's edits, from the call to the committed object row and
/// queue entry, beside the ``SyncEngine`` that sends them.
///
/// It owns the edit path: the write mode and update policy of each edit
/// (Docs/Policies.md), its checks and its one transaction (``apply(_:to:in:isolation:)``:
/// the object row and its queue entry with coalescing, ``QueueStep``), the edits of a
/// ``LocalTransaction``, and how each edit meets the network (``WriteRoute``: commit and
/// signal the sync engine's background sender, or commit, have the sync engine push the
/// queue and wait, undoing an online-only edit the server did not take). It also applies
/// the app's own decisions on queued edits: resolving a conflict, acting on a failed
/// entry, cancelling an entry.
///
/// Given the ``LocalStore`` (which alone holds SQL and transactions) and the
/// ``SyncEngine`` (its background sender, and the push an edit awaits); the ``ObjectStore`` facade and the
/// collection handles forward to it.
final class EditEngine: Sendable {
    let local: LocalStore
    let sync: SyncEngine
    let configuration: ObjectStore.Configuration
    let connectivity: Connectivity
    /// The server edits go to (its id rules, its reachability); nil for a store without a
    /// backend (every edit queues).
    let backend: (any Backend)?

    init(local: LocalStore, sync: SyncEngine, configuration: ObjectStore.Configuration, connectivity: Connectivity) {
        self.local = local
        self.sync = sync
        self.configuration = configuration
        self.connectivity = connectivity
        backend = sync.attachedBackend
    }

    /// The update policy in force for a collection, given an optional per-call override.
    func effectiveUpdatePolicy(_ collection: CollectionDescriptor, override: UpdatePolicy?) -> UpdatePolicy {
        override ?? collection.updatePolicy ?? configuration.updatePolicy
    }

    /// Runs an app edit under the write mode and update policy (Docs/Policies.md); `alongside` runs in
    /// the edit's transaction after the edit (e.g. a blob's row), so both commit or neither
    /// (it must let its errors escape: see ``LocalStore/writeEdit(_:_:)``).
    func edit(_ edit: LocalEdit, in name: String, policy override: UpdatePolicy?,
              alongside: ((Database) throws -> Void)? = nil,
              awaitedUpload: ((Database, String) throws -> AwaitedUploadRule.Upload)? = nil) async throws -> JSONValue? {
        // Until the edit commits nothing of it is stored; after, editImmediately says what became of it.
        try await OfflineStoreError.refusingEdit {
            try await routed(edit, in: name, policy: override, alongside: alongside, awaitedUpload: awaitedUpload)
        }
    }

    private func routed(_ edit: LocalEdit, in name: String, policy override: UpdatePolicy?,
                        alongside: ((Database) throws -> Void)?,
                        awaitedUpload: ((Database, String) throws -> AwaitedUploadRule.Upload)?) async throws -> JSONValue? {
        let descriptor = try local.collections.descriptor(of: name)
        let policy = effectiveUpdatePolicy(descriptor, override: override)
        let edit = try edit.withGeneratedID()
        let commitLocally = { try self.local.writeEdit("saving \(name)/\(edit.objectID)") { db in
            let result = try self.apply(edit, to: descriptor, in: db, isolation: .ownTransaction)
            try alongside?(db)
            return result
        } }

        let route = WriteRoute.decide(mode: configuration.writeMode, policy: policy, hasBackend: backend != nil,
                                      forcedOffline: connectivity.isForcedOffline, localOnly: descriptor.isLocalOnly)
        switch route {
        case .commit:
            return try commitLocally()
        case .refuseOffline:
            throw Self.offlineError(name)
        case .pingThenCommit:
            if let error = Self.onlineOnlyError(await reachability(), collection: name) { throw error }
            return try commitLocally()
        case .commitThenSend:
            let stored = try commitLocally()
            sync.sendSoon()
            return stored
        case .commitThenAwaitServer:
            return try await editImmediately(edit, of: descriptor, policy: policy, alongside: alongside, awaitedUpload: awaitedUpload)
        }
    }

    private static func offlineError(_ collection: String) -> OfflineStoreError {
        OfflineStoreError(.offline, "collection \(collection) updates only online and the server cannot be reached; nothing changed")
    }

    /// Pings the backend (offline without a backend or when forced offline).
    func reachability() async -> Reachability {
        guard let backend, !connectivity.isForcedOffline else { return .offline }
        do {
            try await backend.ping()
            return .reachable
        } catch let error as OfflineStoreError where error.code == .unauthorized {
            return .unauthorized(error)
        } catch {
            return .offline
        }
    }

    /// The error an online-only edit fails with, or nil when the server can take it.
    static func onlineOnlyError(_ reachability: Reachability, collection: String) -> OfflineStoreError? {
        switch reachability {
        case .reachable: nil
        case .offline: offlineError(collection)
        case .unauthorized(let error):
            OfflineStoreError(.unauthorized, "collection \(collection) updates only online and the server refused the credentials; nothing changed",
                              status: error.status)
        }
    }
}

/// Whether the server answers, and whether it accepts the credentials.
enum Reachability: Sendable, Equatable {
    case reachable
    case offline
    /// The server answered but refused the credentials (401/403): it is reachable, the edit is not allowed.
    case unauthorized(OfflineStoreError)
}
