/// The collections registered with a store, by name: read by the facade, the local store
/// and the sync engine, written only by ``ObjectStore/register(_:)`` and when the store opens.
final class CollectionRegistry: Sendable {
    private let descriptors = Locked<[String: CollectionDescriptor]>([:])

    /// The collection named `name`.
    ///
    /// - Throws: ``OfflineStoreError/Code/unknownCollection``.
    func descriptor(of name: String) throws -> CollectionDescriptor {
        guard let d = descriptors.withLock({ $0[name] }) else {
            throw OfflineStoreError(.unknownCollection, "no collection named '\(name)' is registered")
        }
        return d
    }

    /// Every registered collection, sorted by name.
    var all: [CollectionDescriptor] {
        descriptors.withLock { Array($0.values) }.sorted { $0.name < $1.name }
    }

    /// The registered names, sorted.
    var names: [String] { descriptors.withLock { Array($0.keys) }.sorted() }

    func set(_ descriptor: CollectionDescriptor) {
        descriptors.withLock { $0[descriptor.name] = descriptor }
    }

    func replaceAll(_ loaded: [String: CollectionDescriptor]) {
        descriptors.withLock { $0 = loaded }
    }

    /// The collections the server let this user read but not write, as the store last
    /// learnt (``CollectionAccess/readOnly``); kept in step with the `collections` table.
    private let readOnly = Locked<Set<String>>([])

    /// Whether the store knows the collection to be read-only for this user.
    func isReadOnly(_ name: String) -> Bool { readOnly.withLock { !$0.isEmpty && $0.contains(name) } }

    func setReadOnly(_ names: Set<String>) { readOnly.withLock { $0 = names } }

    func setAccess(_ access: CollectionAccess, of name: String) {
        readOnly.withLock { if access == .readOnly { $0.insert(name) } else { $0.remove(name) } }
    }

    /// Refuses a local edit to a collection the store knows to be read-only.
    ///
    /// - Throws: ``OfflineStoreError/Code/forbidden``.
    func checkWritable(_ name: String) throws {
        guard isReadOnly(name) else { return }
        throw OfflineStoreError(.forbidden, "collection \(name) is read-only for this user on the server (found at the "
            + "last sync); the edit was not made. It becomes writable again once a sync finds write access")
    }
}
