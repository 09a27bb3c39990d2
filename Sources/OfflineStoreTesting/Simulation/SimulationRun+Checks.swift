import OfflineStore

/// The promises checked after quiescence.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension SimulationRun {
    /// Every client's queue is empty (none stuck); each store holds exactly the server's
    /// records that match its scope, except for conflicts and failed entries left; every acknowledged edit reached the server or was
    /// superseded; no acknowledged delete was undone by the deleting client's own late write.
    func check() {
        let collection = configuration.collection
        let serverRecords = server.backend.allRecords(collection: collection)
        for client in clients {
            checkQueue(of: client)
            checkEquality(of: client, with: serverRecords)
            checkIntents(of: client)
        }
        checkLateDeliveries()
    }

    private func checkQueue(of client: SimulatedClient) {
        let entries = (try? client.store.queueEntries()) ?? []
        guard !entries.isEmpty else { return }
        let list = entries.map { "\($0.kind.rawValue) \($0.objectID) (\($0.state.rawValue))" }.joined(separator: ", ")
        fail(.stuck, "\(client.name)'s queue is not empty after quiescence: \(list)", ids: entries.map(\.objectID))
    }

    private func checkEquality(of client: SimulatedClient, with serverRecords: [String: JSONValue]) {
        let collection = configuration.collection
        let left = Set(((try? client.store.conflicts(in: collection)) ?? []).map(\.id))
            .union(((try? client.store.failedEntries(collection: collection)) ?? []).map(\.objectID))
        var local: [String: JSONValue] = [:]
        for object in (try? client.store.collection(collection).findAll()) ?? [] {
            if let id = object["id"]?.stringValue { local[id] = object }
        }
        // Exactly the server's records that match the client's scope: none missed, none extra.
        let scope = scopes[client.index]
        for id in Set(local.keys).union(serverRecords.keys).sorted() where !left.contains(id) {
            let held = serverRecords[id].flatMap { Self.holds(scope, $0) ? $0 : nil }
            let mine = local[id].map(Self.comparable), theirs = held.map(Self.comparable)
            if mine != theirs {
                let outside = serverRecords[id] != nil && held == nil ? " outside its scope (\(Self.describe(scope)))" : ""
                fail(.diverged, "\(client.name) holds \(id)=\(Self.describe(local[id])) but the server holds "
                     + "\(Self.describe(serverRecords[id]))\(outside)", ids: [id])
            }
        }
        for id in left.sorted() { note("\(client.name) keeps \(id) conflicted or failed") }
    }

    private func checkIntents(of client: SimulatedClient) {
        for (id, intent) in client.intents.sorted(by: { $0.key < $1.key }) {
            let writes = server.writes(of: id)
            if let value = intent.value {
                let wanted = Self.comparable(value)
                let reached = writes.contains { $0.client == client.index && $0.appliedAt >= intent.madeAt
                    && $0.data.map(Self.comparable) == wanted }
                if !reached {
                    fail(.lost, "\(client.name)'s acknowledged edit \(id)=\(Self.describe(value)) never reached the server", ids: [id])
                }
            } else if intent.queuedDelete {
                // Deleted on the server when the app deleted it, or later.
                let before = writes.last { $0.appliedAt < intent.madeAt }
                let deleted = (before.map { !$0.isLive } ?? false) || writes.contains { $0.appliedAt >= intent.madeAt && !$0.isLive }
                if !deleted {
                    fail(.lost, "\(client.name)'s acknowledged delete of \(id) never reached the server", ids: [id])
                }
            }
        }
    }

    /// The delayed-create hazard: the server's last write of an object is a create that its
    /// client sent before its own delete of that object, which the server applied first.
    private func checkLateDeliveries() {
        for id in configuration.objectIDs + clients.flatMap(\.privateIDs) {
            let writes = server.writes(of: id)
            guard let last = writes.last, last.isLive else { continue }
            let undone = writes.dropLast().last { write in
                !write.isLive && write.client == last.client && last.sentAt < write.sentAt
            }
            if let undone {
                fail(.undone, "c\(last.client + 1)'s acknowledged delete of \(id) (r\(undone.call)) was undone by its own late write "
                     + "(r\(last.call), sent before the delete): \(id)=\(Self.describe(last.data)) is back", ids: [id])
            }
        }
    }

    /// A record as compared: without `id` (the store and the server both hold it).
    static func comparable(_ value: JSONValue) -> JSONValue {
        guard var object = value.objectValue else { return value }
        object["id"] = nil
        return .object(object)
    }
}
