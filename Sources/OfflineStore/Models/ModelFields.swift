@_spi(Reflection) import Swift

/// The stored names of a model's properties, found from its key paths.
///
/// Swift's field reflection lists the stored properties of a struct with their key
/// paths; a property is stored under its name (what synthesized `Codable` does) unless
/// ``SyncModel/renamedFields`` says otherwise. Computed properties and nested key paths
/// (`\.address.city`) have no stored name: a query on them throws `invalidFieldPath`.
enum ModelFields {
    /// Names by key path of one model type.
    // @unchecked Sendable: key paths are immutable objects (the standard library does not
    // mark `AnyKeyPath` Sendable), and the dictionary is never changed once built.
    private struct Names: @unchecked Sendable {
        let byKeyPath: [AnyKeyPath: String]
    }

    /// Names by key path, per model type, found once.
    private static let cache = Locked<[ObjectIdentifier: Names]>([:])

    /// The stored names of `M`'s stored properties, by key path.
    static func names<M: SyncModel>(of type: M.Type) -> [AnyKeyPath: String] {
        let key = ObjectIdentifier(type)
        if let known = cache.withLock({ $0[key] }) { return known.byKeyPath }
        var names: [AnyKeyPath: String] = [:]
        _ = _forEachFieldWithKeyPath(of: M.self) { name, keyPath in
            names[keyPath] = String(cString: name)
            return true
        }
        for (keyPath, name) in M.renamedFields { names[keyPath] = name }
        let found = Names(byKeyPath: names)
        cache.withLock { $0[key] = found }
        return names
    }

    /// The stored name of one property.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidFieldPath`` for a key path that is not a
    ///   stored property of the model.
    static func name<M: SyncModel>(of keyPath: PartialKeyPath<M>) throws -> String {
        guard let name = names(of: M.self)[keyPath] else {
            throw OfflineStoreError(.invalidFieldPath,
                "\(keyPath) is not a stored property of \(M.self) (computed and nested key paths cannot be queried)")
        }
        return name
    }

    /// Every stored name of the model: the members it knows.
    static func allNames<M: SyncModel>(of type: M.Type) -> Set<String> {
        Set(names(of: type).values)
    }
}
