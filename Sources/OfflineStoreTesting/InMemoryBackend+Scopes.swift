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

extension FeedListing {
    /// What a pull request lists: its fields when it names some, else its scope, else everything.
    init(_ request: PullRequest) {
        if let fields = request.hints.fields {
            self = .fields(fields)
        } else if let scope = request.scope {
            self = .scope(scope)
        } else {
            self = .everything
        }
    }
}
