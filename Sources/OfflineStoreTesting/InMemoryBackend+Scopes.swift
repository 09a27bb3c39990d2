import OfflineStore

/// What one page of the in-memory change feed lists: as Kinto lists it for a plain pull, a
/// filtered pull and a pull of a few fields.
enum FeedListing: Sendable, Hashable {
    /// Every change, tombstones included (`_since`).
    case everything
    /// The live records matching a scope: Kinto's filters (`in_region=…`) never list a
    /// tombstone, which carries no field to match.
    case scope(ServerQuery)
    /// Every change with only these fields of each record besides its id (`_fields`), tombstones included.
    case fields([String])

    /// The change as this listing shows it; nil when it does not list it.
    func show(id: String, record: StoredRecord) -> RemoteChange? {
        let version = String(record.lastModified)
        switch self {
        case .everything:
            return RemoteChange(id: id, record: record.data, version: version)
        case .scope(let scope):
            guard let data = record.data, scope.matches(data) else { return nil }
            return RemoteChange(id: id, record: data, version: version)
        case .fields(let fields):
            guard let object = record.data?.objectValue else { return RemoteChange(id: id, record: nil, version: version) }
            var partial: [String: JSONValue] = ["id": .string(id)]
            for field in fields { partial[field] = object[field] }
            return RemoteChange(id: id, record: .object(partial), version: version)
        }
    }
}

/// Pulls by a sync scope and light pulls of a few fields, as Kinto answers them: a scoped
/// page lists no tombstone (the departure pull finds deletions), so the in-memory server
/// tests the engine against what a real Kinto shows (Docs/KintoFacts.md §7).
extension InMemoryBackend {
    /// One page of the changes since `cursor` of the live records matching `scope`; no
    /// tombstones, as on Kinto. Same bound, order and paging as ``pull(collection:since:continuing:)``.
    ///
    /// - Throws: as ``pull(collection:since:continuing:)``.
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                     scope: ServerQuery) async throws -> PullPage {
        try await pull(collection: collection, since: cursor, continuing: continuing, listing: .scope(scope))
    }

    /// One page of every change since `cursor` (tombstones included), each record reduced to
    /// its id and `fields`, as Kinto's `_fields` answers.
    ///
    /// - Throws: as ``pull(collection:since:continuing:)``.
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                     fields: [String]) async throws -> PullPage {
        try await pull(collection: collection, since: cursor, continuing: continuing, listing: .fields(fields))
    }

    private func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                      listing: FeedListing) async throws -> PullPage {
        let fault = state.withLock { s in
            s.log.append(.pull(collection: collection, since: cursor, continuing: continuing))
            return s.faults.takeCallFault(for: .pull)
        }
        _ = try await play(fault, on: .pull)
        return try page(collection: collection, since: cursor, continuing: continuing, listing: listing)
    }
}
