import OfflineStore

extension StoredCollection {
    /// Applies one pushed operation and answers as Kinto would (412 → conflict, 404 on delete → applied).
    mutating func apply(_ operation: PushOperation, now: Int64) -> PushOutcome {
        guard KintoConventions.accepts(id: operation.id) else {
            return .rejected(status: 400, body: KintoConventions.invalidIDBody)
        }
        var base: Int64?
        if let baseVersion = operation.baseVersion, operation.kind != .create {
            guard let parsed = Int64(baseVersion) else {
                return .rejected(status: 400, body: KintoConventions.invalidParameters(
                    "If-Match in header: The value should be integer between double quotes."))
            }
            base = parsed
        }
        let current = live(operation.id)
        switch operation.kind {
        case .create:
            if let current { return .conflict(server: current.data, version: String(current.lastModified)) }
            return store(operation, now: now)
        case .update:
            if let base {
                guard let current else { return .conflict(server: nil, version: nil) }
                guard current.lastModified == base else {
                    return .conflict(server: current.data, version: String(current.lastModified))
                }
            }
            return store(operation, now: now)
        case .delete:
            guard let current else { return .applied(record: nil, version: nil) }
            if let base, base != current.lastModified {
                return .conflict(server: current.data, version: String(current.lastModified))
            }
            let version = remove(id: operation.id, now: now)
            return .applied(record: nil, version: version.map { String($0) })
        }
    }

    /// Writes a create's or update's data, or rejects data Kinto would refuse.
    private mutating func store(_ operation: PushOperation, now: Int64) -> PushOutcome {
        guard let data = operation.data?.objectValue else {
            return .rejected(status: 400, body: KintoConventions.invalidParameters("data in body: Should be an object"))
        }
        if let sentID = data["id"], sentID != .string(operation.id) {
            return .rejected(status: 400, body: KintoConventions.invalidParameters("Object id does not match existing object"))
        }
        let version = write(id: operation.id, data: data, now: now)
        return .applied(record: records[operation.id]?.data, version: String(version))
    }
}
