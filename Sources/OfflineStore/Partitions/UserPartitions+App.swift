import Foundation

/// The app partition (data shared by every user of the device) and routing by partition.
extension UserPartitions {
    /// The app partition's store (`app.sqlite`), opened on first use with the `.app`
    /// collections registered. It stays open across logout and login; its requests carry the
    /// signed-in user's credentials (none while signed out). Edits queued in it when a user
    /// signs out are sent by the next signed-in user's sync.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` without an `appBackend`, or a storage error.
    public func appStore() throws -> ObjectStore {
        guard let makeAppBackend else {
            throw OfflineStoreError(.configuration, "no app partition: declare a collection with partition: .app and pass an appBackend")
        }
        return try app.withLock { slot in
            if let store = slot { return store }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let store = try ObjectStore(path: appPath, configuration: storeConfiguration, backend: makeAppBackend(appSession))
            do {
                for descriptor in declaredCollections where descriptor.partition == .app { try store.register(descriptor) }
            } catch {
                try? store.close()
                throw error
            }
            slot = store
            return store
        }
    }

    /// The app partition's store file.
    public var appPath: String { directory.appendingPathComponent("app.sqlite").path }

    /// A declared collection, from the store of its partition: `.app` ones from
    /// ``appStore()`` (also while signed out), the others from the signed-in user's store.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidOperation`` for an undeclared collection or a
    ///   user/local one while nobody is signed in; what ``appStore()`` throws.
    public func collection(_ name: String) throws -> ObjectCollection {
        guard let descriptor = declaredCollections.first(where: { $0.name == name }) else {
            throw OfflineStoreError(.invalidOperation, "collection '\(name)' is not declared in these partitions")
        }
        if descriptor.partition == .app { return try appStore().collection(name) }
        guard let store = currentStore else {
            throw OfflineStoreError(.invalidOperation, "'\(name)' is in the \(descriptor.partition.rawValue) partition: log in first")
        }
        return store.collection(name)
    }

    /// Signs out like ``logout()``; with `removingAppData` the app partition's objects, queue
    /// and cursors go too (the server keeps its copy; the next sync reads it again).
    ///
    /// - Throws: a storage error.
    public func logout(removingAppData: Bool) async throws {
        try logout()
        if removingAppData, let store = app.withLock({ $0 }) { try await store.resetAll() }
    }

    /// Signs out and closes the app store; the partitions can be used again afterwards.
    ///
    /// - Throws: a storage error from closing.
    public func close() throws {
        try logout()
        let store = app.withLock { slot in defer { slot = nil }; return slot }
        try store?.close()
    }
}
