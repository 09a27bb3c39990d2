/// The stored names of a model's properties, found from its key paths.
///
/// A key path's name comes from the model's own `Codable` implementation (``FieldProbe``):
/// `CodingKeys` renames are followed with nothing declared, nested key paths
/// (`\.address.city`) name dotted paths (`address.city`), and nothing depends on
/// reflection metadata or on any underscored symbol. ``SyncModel/renamedFields``, when a
/// model declares it, overrides what the probe finds for its key paths.
enum ModelFields {
    /// What is known of one model type: its probe, or why it cannot be probed, and the
    /// names found so far by key path.
    // @unchecked Sendable: key paths are immutable objects (the standard library does not
    // mark `AnyKeyPath` Sendable); `names` is only touched under its lock.
    private final class Entry: @unchecked Sendable {
        let probe: Result<any Sendable, OfflineStoreError>
        let names = Locked<[KeyPathKey: Result<[String], OfflineStoreError>]>([:])

        init(probe: Result<any Sendable, OfflineStoreError>) { self.probe = probe }
    }

    /// A key path as a dictionary key.
    // @unchecked Sendable: key paths are immutable objects.
    private struct KeyPathKey: Hashable, @unchecked Sendable {
        let keyPath: AnyKeyPath
    }

    /// Entries by model type, made once.
    private static let cache = Locked<[ObjectIdentifier: Entry]>([:])

    private static func entry<M: SyncModel>(of type: M.Type) -> Entry {
        let key = ObjectIdentifier(type)
        if let known = cache.withLock({ $0[key] }) { return known }
        let probe: Result<any Sendable, OfflineStoreError>
        do { probe = .success(try FieldProbe<M>.run()) } catch {
            probe = .failure(OfflineStoreError(.configuration,
                "the store cannot learn \(M.self)'s field names from its Codable implementation: \(error). "
                + "Make that type CaseIterable (its first cases are used as samples), or make the field optional"))
        }
        return cache.withLock { cache in
            if let raced = cache[key] { return raced }
            let made = Entry(probe: probe)
            cache[key] = made
            return made
        }
    }

    private static func probe<M: SyncModel>(of type: M.Type) throws -> FieldProbe<M> {
        // The cast is to the type the entry was made with, so it cannot fail.
        try entry(of: type).probe.get() as! FieldProbe<M>
    }

    /// Makes sure the model's field names can be found (``ObjectStore/register(_:fields:localOnly:updatePolicy:conflictPolicy:)``
    /// calls it, so a model the store cannot read fails there rather than on its first save).
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` naming the field whose type refuses
    ///   every value the store tries, and what to change.
    static func check<M: SyncModel>(_ type: M.Type) throws {
        _ = try probe(of: type)
    }

    /// The stored field path of one property: its name, or a dotted path for a nested one.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidFieldPath`` for a key path that is not a
    ///   stored property of the model; ``OfflineStoreError/Code/configuration`` when the
    ///   model cannot be probed (see ``check(_:)``).
    static func name<M: SyncModel>(of keyPath: PartialKeyPath<M>) throws -> String {
        try path(of: keyPath).joined(separator: ".")
    }

    /// The stored name of a top-level property (conflicts and failed entries compare whole
    /// top-level fields).
    ///
    /// - Throws: as ``name(of:)``; ``OfflineStoreError/Code/invalidFieldPath`` for a nested key path.
    static func topLevelName<M: SyncModel>(of keyPath: PartialKeyPath<M>) throws -> String {
        let path = try path(of: keyPath)
        guard path.count == 1 else {
            throw OfflineStoreError(.invalidFieldPath,
                "\(KeyPathText.describe(keyPath)) is nested ('\(path.joined(separator: "."))'): conflicts compare whole top-level fields; use \\.\(path[0])")
        }
        return path[0]
    }

    private static func path<M: SyncModel>(of keyPath: PartialKeyPath<M>) throws -> [String] {
        if let renamed = M.renamedFields[keyPath] { return renamed.split(separator: ".").map(String.init) }
        let entry = entry(of: M.self)
        let key = KeyPathKey(keyPath: keyPath)
        if let known = entry.names.withLock({ $0[key] }) { return try known.get() }
        let found = Result { try probe(of: M.self).path(of: keyPath) }.mapError { error in
            error as? OfflineStoreError ?? OfflineStoreError(.invalidFieldPath, "\(KeyPathText.describe(keyPath)): \(error)")
        }
        entry.names.withLock { $0[key] = found }
        return try found.get()
    }

    /// Every top-level stored name of the model: the members it knows (a save keeps the others).
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` when the model cannot be probed.
    static func allNames<M: SyncModel>(of type: M.Type) throws -> Set<String> {
        Set(try probe(of: type).topLevelKeys).union(M.renamedFields.values.compactMap { $0.split(separator: ".").first.map(String.init) })
    }
}
