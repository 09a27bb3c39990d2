import Foundation

/// One store file per user plus one for the app (RhoConnect's user, app and local
/// partitions), so that a logout followed by a login as someone else never shows the first
/// user's objects, queue or conflicts, while data shared by every user stays.
///
/// ```swift
/// let partitions = UserPartitions(
///     directory: appSupport,
///     collections: [CollectionDescriptor("todos"), CollectionDescriptor("catalog", partition: .app)],
///     appBackend: { session in KintoBackend(configuration: .init(serverURL: url, bucket: "shared", auth: .session(session))) }
/// ) { session, user in
///     KintoBackend(configuration: .init(serverURL: url, bucket: "todos-\(user)", auth: .session(session)))
/// }
/// let store = try await partitions.login(.basic(user: "alice", password: "s3cret"))
/// try await store.sync()                   // alice's todos
/// try await partitions.appStore().sync()   // the shared catalog, with alice's credentials
/// try partitions.logout()                  // alice's file stays, closed; the catalog stays open
/// ```
///
/// A user's file is `user-<hex of the user name>.sqlite` in `directory`, the app partition's
/// is `app.sqlite`; credentials are never written. Each collection declares its
/// ``CollectionPartition``: `.user` and `.local` collections are registered in the user's
/// store, `.app` ones in the app store.
public final class UserPartitions: Sendable {
    /// Where the users' store files live.
    public let directory: URL
    private let configuration: ObjectStore.Configuration
    private let descriptors: [CollectionDescriptor]
    private let makeBackend: @Sendable (AuthSession, String) -> any Backend
    let makeAppBackend: (@Sendable (AuthSession) -> any Backend)?
    let appSession = AuthSession()
    private let open = Locked<(user: String, store: ObjectStore)?>(nil)
    let app = Locked<ObjectStore?>(nil)

    /// Partitions in `directory`; `backend` builds each user's backend on their session (e.g.
    /// with a bucket per user), `appBackend` the app partition's backend on a session that
    /// carries whoever is signed in (required when a collection is in the `.app` partition).
    public init(directory: URL, configuration: ObjectStore.Configuration = ObjectStore.Configuration(),
                collections: [CollectionDescriptor], appBackend: (@Sendable (_ session: AuthSession) -> any Backend)? = nil,
                backend: @escaping @Sendable (_ session: AuthSession, _ user: String) -> any Backend) {
        precondition(appBackend != nil || !collections.contains { $0.partition == .app },
                     "collections in the app partition need an appBackend")
        self.directory = directory
        self.configuration = configuration
        self.descriptors = collections
        self.makeBackend = backend
        self.makeAppBackend = appBackend
    }

    /// Signs in (the server validates the credentials) and opens that user's store,
    /// closing the previous user's; the app store's requests now carry these credentials.
    ///
    /// - Throws: ``OfflineStoreError`` `configuration` (credentials that name no user),
    ///   `unauthorized`, `offline`, `timeout`, `server` (nothing opened), or a storage error.
    public func login(_ credentials: Credentials) async throws -> ObjectStore {
        guard let user = credentials.user, !user.isEmpty else {
            throw OfflineStoreError(.configuration, "per-user partitions need credentials that name the user")
        }
        let session = AuthSession()
        let backend = makeBackend(session, user)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try ObjectStore(path: path(for: user), configuration: configuration, backend: backend)
        do {
            try await store.login(credentials)
            for descriptor in descriptors where descriptor.partition != .app { try store.register(descriptor) }
            if makeAppBackend != nil { _ = try appStore() }
        } catch {
            try? store.close()
            throw error
        }
        appSession.set(credentials)
        let previous = open.withLock { slot in
            defer { slot = (user, store) }
            return slot?.store
        }
        try? previous?.close()
        return store
    }

    /// Signs out and closes the current user's store; their file stays for their next login.
    ///
    /// - Throws: a storage error from closing.
    public func logout() throws {
        guard let current = open.withLock({ slot in defer { slot = nil }; return slot }) else { return }
        current.store.logout()
        appSession.set(nil)
        try current.store.close()
    }

    /// Signs out, deciding what happens to the signed-in user's edits not sent yet
    /// (``PendingEditsAtLogout``): `.refuse` throws while there are some and changes nothing,
    /// `.keep` keeps them in the user's file for their next login, `.discard` drops them
    /// first. App-partition edits are kept either way (the next user's sync sends them).
    ///
    /// - Throws: ``OfflineStoreError/Code/pendingEdits`` (`.refuse`), or a storage error.
    public func logout(pendingEdits: PendingEditsAtLogout, removingAppData: Bool = false) async throws {
        try await currentStore?.logout(pendingEdits: pendingEdits)
        try await logout(removingAppData: removingAppData)
    }

    /// The signed-in user's store, if any.
    public var currentStore: ObjectStore? { open.withLock { $0?.store } }

    var declaredCollections: [CollectionDescriptor] { descriptors }
    var storeConfiguration: ObjectStore.Configuration { configuration }

    /// The signed-in user, if any.
    public var currentUser: String? { open.withLock { $0?.user } }

    /// The store file of a user.
    public func path(for user: String) -> String {
        let hex = user.utf8.map { String(format: "%02x", $0) }.joined()
        return directory.appendingPathComponent("user-\(hex).sqlite").path
    }

    /// Deletes a signed-out user's store file (and its WAL files).
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidOperation`` while that user is signed in.
    public func removeData(of user: String) throws {
        if currentUser == user {
            throw OfflineStoreError(.invalidOperation, "user \(user) is signed in: log out first")
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path(for: user) + suffix) }
    }
}
