import OfflineStore

/// Sync scopes in the simulation: each client's app registers the collection with a scope
/// (selecting on the records' `tag`) and may switch it; another writer changes records
/// straight on the server, so records enter and leave scopes while the clients pull.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension SimulationRun {
    /// The collection as a client's app registers it.
    func descriptor(policy: ConflictPolicy, scope: ServerQuery?) -> CollectionDescriptor {
        var descriptor = CollectionDescriptor(configuration.collection, conflictPolicy: policy)
        descriptor.syncScope = scope
        return descriptor
    }

    /// The app registers the collection again with another scope (its copies outside the new
    /// scope go at once; the next refresh pulls what the new scope adds).
    func rescope(_ client: SimulatedClient) {
        let choices = configuration.scopeChoices
        let scope = choices[random.int(in: 0..<choices.count)]
        log("\(client.name) changes its scope to \(Self.describe(scope))")
        do {
            try client.store.register(descriptor(policy: client.policy, scope: scope))
            scopes[client.index] = scope
        } catch {
            note("\(client.name) scope change refused: \(Self.describe(error))")
        }
    }

    /// The ids the server's own writer writes: the shared ones and its own.
    var writerIDs: [String] { configuration.objectIDs + (0..<configuration.writerIDs).map { "w-\($0 + 1)" } }

    /// Another writer (not a store) writes straight on the server, at once: a single put, a
    /// batch of puts and deletes with consecutive versions (one Kinto batch), or a delete.
    func writeOnServer() {
        let ids = writerIDs
        let count = random.chance(40) ? 2 + random.int(in: 0..<3) : 1
        // The collection timestamp as the writer read it before the batch: a collider sends it as
        // its `last_modified`, which lands in the past once the batch wrote something before it.
        let read = Int64(server.backend.collectionTimestamp(collection: configuration.collection)) ?? 0
        var operations: [(id: String, data: JSONValue?, stamp: Int64?)] = []
        // One collider per batch: two changes share a timestamp at most, as one collider's
        // write makes (more than a page holds is a documented limit, KintoPageBoundary).
        var collided = false
        for _ in 0..<count {
            let id = ids[random.int(in: 0..<ids.count)]
            if random.chance(30) {
                operations.append((id, nil, nil))
            } else {
                writerEdits += 1
                let collides = random.chance(configuration.colliderPercent) && !collided && collidesWithinTheLookBack(read)
                collided = collided || collides
                operations.append((id, ["id": .string(id), "v": .string("w.\(writerEdits)"), "tag": randomTag()],
                                   collides ? read : nil))
            }
        }
        let outcomes = server.write(operations, collection: configuration.collection, writer: writerIndex, now: milliseconds())
        let items = zip(operations, outcomes).map { operation, outcome -> String in
            var what = operation.data.map { "\(operation.id)=\(Self.describe($0))" } ?? "delete \(operation.id)"
            if let stamp = operation.stamp { what += " sent as \(version(String(stamp)))" }
            guard case .applied(_, let version) = outcome else { return what + " (nothing)" }
            return what + (version.map { self.version($0) } ?? " (nothing)")
        }
        log("w writes on the server: [\(items.joined(separator: ", "))]")
    }

    /// Whether a collider's timestamp `read` may land in the past here: Kinto's look-back reads
    /// such a write again only when it lands within the look-back of its timestamp (a later one
    /// is a documented limit, Docs/Sync.md), and a page of one change cannot separate two
    /// changes of one timestamp (``KintoPageBoundary``'s limit), so pages of one are left out.
    func collidesWithinTheLookBack(_ read: Int64) -> Bool {
        let window = configuration.lookBack.components.seconds * 1000
        return server.backend.configuration.pageSize >= 2 && milliseconds() - read < window / 2
    }

    /// The client number the server's writer goes by in the server's history.
    var writerIndex: Int { configuration.clients }

    /// A tag drawn for a new record or a patch.
    func randomTag() -> JSONValue { .string(configuration.tags[random.int(in: 0..<configuration.tags.count)]) }

    /// Whether a client with `scope` holds `record`.
    static func holds(_ scope: ServerQuery?, _ record: JSONValue) -> Bool { scope.map { $0.matches(record) } ?? true }

    static func describe(_ scope: ServerQuery?) -> String {
        guard let scope, !scope.terms.isEmpty else { return "whole collection" }
        return scope.terms.map { term in
            let value: String
            switch term.value {
            case .array(let items): value = "[" + items.map { $0.stringValue ?? $0.serialized() }.joined(separator: ",") + "]"
            default: value = term.value.stringValue ?? term.value.serialized()
            }
            return "\(term.field) \(term.op.rawValue) \(value)"
        }.joined(separator: " and ")
    }
}
