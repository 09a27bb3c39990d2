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
}
