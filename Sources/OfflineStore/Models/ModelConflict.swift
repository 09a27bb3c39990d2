/// A side of a conflict: the local edit or the server's version.
public enum ModelConflictSide: Sendable, Hashable {
    /// The app's unsynced edit.
    case local
    /// The server's current version.
    case server
}

/// A local edit that met a different server version, with the copies decoded as `M`
/// and a per-field view of what each side changed.
///
/// ```swift
/// for conflict in try todos.conflicts() {
///     for change in conflict.changes where change.isConflicting { print(change.field, change.local, change.server) }
///     let merged = try conflict.merged(choosing: [\.title: .server], otherwise: .local)
///     try todos.resolve(conflict, with: merged)
/// }
/// ```
public struct ModelConflict<M: SyncModel>: Sendable, Identifiable {
    /// The object's id.
    public var id: String { json.id }
    /// The server copy the local edit started from (nil if created locally, or if it does not decode).
    public let base: M?
    /// The local edit (nil when the local edit is a delete, or if it does not decode).
    public let local: M?
    /// The server's current copy (nil when the server deleted the object, or if it does not decode).
    public let server: M?
    /// The copies that exist but do not decode as `M` (their JSON is in ``json``).
    public let undecodable: [UndecodableRecord]
    /// The conflict as JSON copies (the JSON API's view, unknown fields included).
    public let json: Conflict

    /// The conflict with its copies decoded; a copy that does not decode is listed in ``undecodable``.
    init(_ conflict: Conflict) {
        json = conflict
        let decoder = ModelDecoder(coding: M.coding)
        var undecodable: [UndecodableRecord] = []
        func decode(_ value: JSONValue?) -> M? {
            guard let value else { return nil }
            do {
                return try decoder.decode(M.self, from: value)
            } catch {
                let decodingError = error as? DecodingError
                    ?? .dataCorrupted(.init(codingPath: [], debugDescription: "\(error)", underlyingError: error))
                undecodable.append(UndecodableRecord(collection: conflict.collection, id: conflict.id, json: value, error: decodingError))
                return nil
            }
        }
        base = decode(conflict.base)
        local = decode(conflict.local)
        server = decode(conflict.server)
        self.undecodable = undecodable
    }

    /// Every field that differs between the copies, sorted by name: what the local edit
    /// and the server each changed since the base.
    public var changes: [ModelFieldChange] {
        ModelFieldChange.changes(base: json.base, local: json.local, server: json.server)
    }

    /// The fields both sides changed to different values.
    public var conflictingChanges: [ModelFieldChange] { changes.filter(\.isConflicting) }

    /// How one property differs between the copies, or nil when all copies agree.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidFieldPath`` for a key path that is not a
    ///   stored top-level property (changes are per top-level field).
    public func change(of keyPath: PartialKeyPath<M>) throws -> ModelFieldChange? {
        let name = try ModelFields.topLevelName(of: keyPath)
        return changes.first { $0.field == name }
    }

    /// A model built field by field: each chosen property from its side, every other
    /// field from `otherwise`'s side, except that a field only one side changed takes
    /// that side's value (a three-way merge for the fields nobody chose).
    ///
    /// Fields the model does not know follow the same rules, so they are kept.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidFieldPath`` for a key path that is not a
    ///   stored top-level property, `undecodable` when the merged object does not decode.
    public func merged(choosing choices: [PartialKeyPath<M>: ModelConflictSide] = [:],
                       otherwise: ModelConflictSide = .local) throws -> M {
        var chosen: [String: ModelConflictSide] = [:]
        for (keyPath, side) in choices { chosen[try ModelFields.topLevelName(of: keyPath)] = side }
        var members = (json.local ?? json.server ?? json.base)?.objectValue ?? ["id": .string(id)]
        for change in changes {
            let side = chosen[change.field]
                ?? (change.changedLocally && !change.changedOnServer ? .local
                    : change.changedOnServer && !change.changedLocally ? .server : otherwise)
            members[change.field] = side == .local ? change.local : change.server
        }
        members["id"] = .string(id)
        do {
            return try ModelDecoder(coding: M.coding).decode(M.self, from: .object(members))
        } catch let error as DecodingError {
            throw UndecodableRecord(collection: M.collectionName, id: id, json: .object(members), error: error).thrown
        }
    }
}

/// How a typed conflict is to be settled.
public enum ModelResolution<M: SyncModel>: Sendable {
    /// Leave the object conflicted for the app to resolve later.
    case preserve
    /// Keep the local edit and resend it on the server's version.
    case keepLocal
    /// Drop the local edit; the server's copy stands.
    case keepServer
    /// Send this model (queued as an update on the server's version); fields it does not
    /// know are taken from the server's copy.
    case model(M)
}

extension ModelResolution {
    /// The engine's resolution of `conflict`: a model becomes its JSON, with the members it
    /// does not know taken from the server's copy (else the local one).
    ///
    /// - Throws: `EncodingError` for a model JSON cannot hold.
    func resolution(of conflict: Conflict) throws -> Resolution {
        switch self {
        case .preserve: return .preserve
        case .keepLocal: return .keepLocal
        case .keepServer: return .keepServer
        case .model(let model):
            var members = try ModelEncoder(coding: M.coding).encodeForStore(model, "\(conflict.collection)/\(conflict.id)").objectValue ?? [:]
            let known = try ModelFields.allNames(of: M.self)
            let unknown = (conflict.server ?? conflict.local)?.objectValue ?? [:]
            for (key, value) in unknown where members[key] == nil && !known.contains(key) { members[key] = value }
            members["id"] = .string(conflict.id)
            return .merged(.object(members))
        }
    }
}

extension ConflictPolicy {
    /// A custom policy that decides with the model's types, during the sync that meets
    /// the conflict.
    ///
    /// ```swift
    /// try store.register(Todo.self, conflictPolicy: .custom(for: Todo.self) { conflict in
    ///     (try? conflict.merged(choosing: [\.title: .server])).map { .model($0) } ?? .preserve
    /// })
    /// ```
    ///
    /// A model that cannot be encoded leaves the object conflicted.
    public static func custom<M: SyncModel>(
        for type: M.Type, _ decide: @escaping @Sendable (ModelConflict<M>) -> ModelResolution<M>
    ) -> ConflictPolicy {
        .custom { conflict in
            (try? decide(ModelConflict(conflict)).resolution(of: conflict)) ?? .preserve
        }
    }
}
