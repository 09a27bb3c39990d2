import Foundation

/// Entities ⇄ the store's objects for one entity set (pure, no I/O).
///
/// An object is the entity without control information and annotations, its key property
/// replaced by `id` (the key as text: ``ODataKey/id(of:)``). References (the dependent
/// properties of the set's navigation constraints, e.g. `Orders.CustomerID`) are held as id
/// text too, so that the engine can point them at a server-assigned id; they are written back
/// in their declared type when sent. Computed properties (`Core.Computed`) are kept in the
/// object but never sent.
struct ODataRecordMapping: Sendable {
    /// The set.
    let set: ODataEntitySet
    /// Its key.
    let key: ODataKey

    /// The mapping of `set`.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` for a key the store cannot sync.
    init(set: ODataEntitySet) throws {
        self.set = set
        key = try set.key()
    }

    /// Whether the server assigns the key (``ODataEntitySet/assignsKeys(_:)``).
    var assignsKeys: Bool { self.set.assignsKeys(key) }

    /// The reference fields: dependent property → the entity set it points into (bound
    /// navigation properties with one referential constraint).
    var references: [String: String] {
        var fields: [String: String] = [:]
        for navigation in set.navigation where !navigation.isCollection {
            guard let target = navigation.targetSet, navigation.constraints.count == 1,
                  let constraint = navigation.constraints.first else { continue }
            fields[constraint.property] = target
        }
        return fields
    }

    /// The properties the server writes, by the store's names (the key is `id`, not listed).
    var serverManaged: Set<String> { self.set.computed.subtracting([key.property]) }

    /// The store's id and object of an entity read from a page or an answer.
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` for an entity without its key, or a
    ///   key of another type.
    func object(_ properties: [String: JSONValue], what: String) throws -> (id: String, object: JSONValue) {
        guard let value = properties[key.property] else {
            throw OfflineStoreError(.badResponse, "\(what): an entity of \(set.name) has no key \(key.property) "
                + "(its properties: \(properties.keys.sorted().joined(separator: ", ")))")
        }
        let id = try key.id(of: value)
        var members = properties
        members[key.property] = nil
        for field in references.keys {
            if case .int(let number)? = members[field] { members[field] = .string(String(number)) }
        }
        members["id"] = .string(id)
        return (id, .object(members))
    }

    /// The body of a create or an update: the object without `id` and computed properties,
    /// references in their declared type, and the key (typed) for a create of a client key.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidJSON`` for a reference that is not an id of
    ///   its declared type, ``OfflineStoreError/Code/invalidID`` for an id the key cannot be.
    func body(_ object: JSONValue?, id: String, includeKey: Bool) throws -> JSONValue {
        var fields: [String: JSONValue] = [:]
        let references = references
        for (name, value) in object?.objectValue ?? [:] {
            guard name != "id", name != key.property, !self.set.computed.contains(name) else { continue }
            if references[name] != nil, case .string(let text) = value, let type = set.property(name)?.type,
               type == ODataKeyType.int32.rawValue || type == ODataKeyType.int64.rawValue {
                guard let number = ODataKeyType(rawValue: type).flatMap({ ODataKey.integer(text, $0) }) else {
                    throw OfflineStoreError(.invalidJSON, "\(set.name): the reference \(name) is \"\(text)\", not an \(type) id")
                }
                fields[name] = .int(number)
            } else {
                fields[name] = value
            }
        }
        if includeKey {
            try key.validate(id)
            switch key.type {
            case .guid, .string: fields[key.property] = .string(id)
            case .int32, .int64: fields[key.property] = .int(ODataKey.integer(id, key.type) ?? 0)
            }
        }
        return .object(fields)
    }

    /// Whether the server's copy holds every field a write sent, computed ones aside: the
    /// write was applied (a resent write whose first answer was lost).
    func holds(_ copy: JSONValue, sent: JSONValue?) -> Bool {
        let server = copy.objectValue ?? [:]
        return (sent?.objectValue ?? [:]).allSatisfy { name, value in
            name == "id" || name == key.property || self.set.computed.contains(name) || server[name] == value
        }
    }
}
