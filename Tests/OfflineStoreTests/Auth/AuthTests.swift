import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// Login, logout, token refresh and secrecy of credentials, on the real Kinto (SPEC §10).
@Suite struct AuthTests {
    static let password = "pw-SECRET-4711"

    /// A store on a fresh Kinto bucket whose backend signs with `session`.
    static func withKintoStore(_ session: AuthSession, pageSize: Int = 500,
                               _ body: (ObjectStore, KintoBackend) async throws -> Void) async throws {
        let backend = try KintoServer.backend(auth: .session(session), pageSize: pageSize)
        try await withTemporaryStore(configuration: .with { $0.writeMode = .deferred }, backend: backend,
                                     collections: [CollectionDescriptor("todos")]) { store in
            try await body(store, backend)
        }
    }

    @Test(.liveServer) func loginIsValidatedByTheServerAndLogoutStopsSyncKeepingTheQueue() async throws {
        let session = AuthSession()
        try await Self.withKintoStore(session) { store, _ in
            #expect(store.isLoggedIn == false)
            // Kinto (basicauth) does not know bearer tokens: the root names no user.
            let refused = await #expect(throws: OfflineStoreError.self) {
                try await store.login(.bearer(token: "not-a-token", user: "mallory"))
            }
            #expect(refused?.code == .unauthorized)
            #expect(store.isLoggedIn == false)

            try await store.login(.basic(user: "alice", password: Self.password))
            #expect(store.isLoggedIn && session.user == "alice")
            try await store.collection("todos").create(["id": "a", "title": "mine"])
            #expect(try await store.sync().pushed == 1)

            store.logout()
            #expect(store.isLoggedIn == false)
            try await store.collection("todos").patch("a", ["title": "offline edit"])
            let stop = await #expect(throws: OfflineStoreError.self) { try await store.sync() }
            #expect(stop?.code == .unauthorized)
            #expect(try store.queueCount() == 1)
            #expect(try store.collection("todos").find("a")?["title"] == "offline edit")

            try await store.login(.basic(user: "alice", password: Self.password))
            #expect(try await store.sync().pushed == 1)
            #expect(try store.queueCount() == 0)
        }
    }

    @Test(.liveServer) func anExpiringTokenIsRefreshedMidSync() async throws {
        let tokens = ExpiringToken(user: "alice", password: Self.password, expireEvery: 4)
        let session = AuthSession(.provider(user: "alice", tokens))
        try await Self.withKintoStore(session, pageSize: 2) { store, _ in
            let todos = store.collection("todos")
            for i in 1...5 { try await todos.create(["id": .string("t\(i)"), "n": .int(Int64(i))]) }
            let pushed = try await store.flush()
            try await store.resetSyncState()                // pull everything again, page by page
            let pulled = try await store.refresh()
            #expect(pushed.pushed == 5)
            #expect(pulled.pulled == 5)
            #expect(tokens.refreshes >= 2)               // expired during the push and during the pull
            #expect(tokens.expiredRequests >= tokens.refreshes)
            #expect(try todos.count() == 5 && store.queueCount() == 0)
        }
    }

    @Test(.liveServer) func credentialsNeverReachTheStoreFileOrDescriptions() async throws {
        let session = AuthSession()
        try await withTemporaryDirectory { directory in
            let backend = try KintoServer.backend(auth: .session(session))
            let path = directory.path("store.sqlite")
            let store = try ObjectStore(path: path, configuration: .with { $0.writeMode = .deferred }, backend: backend)
            try store.register(CollectionDescriptor("todos"))
            try await store.login(.basic(user: "alice", password: Self.password))
            try await store.collection("todos").create(["id": "a"])
            try await store.sync()
            let descriptions = ["\(session)", "\(backend)", "\(backend.configuration)",
                                "\(Credentials.basic(user: "alice", password: Self.password))",
                                "\(Credentials.bearer(token: Self.password, user: nil))", String(reflecting: session)]
            for text in descriptions { #expect(!text.contains(Self.password), "\(text)") }
            try store.close()
            for suffix in ["", "-wal", "-shm"] {
                guard let bytes = FileManager.default.contents(atPath: path + suffix) else { continue }
                #expect(bytes.range(of: Data(Self.password.utf8)) == nil, "password in store\(suffix)")
                #expect(bytes.range(of: Data(Data("alice:\(Self.password)".utf8).base64EncodedString().utf8)) == nil)
            }
        }
    }

    @Test func anOnlineOnlyEditIsRefusedAsUnauthorizedNotOffline() async throws {
        let backend = InMemoryBackend()
        try await withTemporaryStore(configuration: .with { $0.writeMode = .deferred }, backend: backend,
                                     collections: [CollectionDescriptor("todos", updatePolicy: .updateIfOnline)]) { store in
            backend.inject(.status(401).only(.ping))
            let error = await #expect(throws: OfflineStoreError.self) {
                try await store.collection("todos").create(["id": "a"])
            }
            #expect(error?.code == .unauthorized)
            let queued = try store.queueCount()
            #expect(queued == 0)
            backend.inject(.offline.only(.ping))
            let offline = await #expect(throws: OfflineStoreError.self) {
                try await store.collection("todos").create(["id": "a"])
            }
            #expect(offline?.code == .offline)
        }
    }

    @Test func loginNeedsASession() async throws {
        try await withTemporaryStore(backend: InMemoryBackend()) { store in
            let error = await #expect(throws: OfflineStoreError.self) {
                try await store.login(.basic(user: "a", password: "b"))
            }
            #expect(error?.code == .configuration)
        }
    }
}

/// A token that "expires" on every n-th request (the header then carries a token Kinto
/// does not know, so the request is anonymous and refused with 401) until refreshed.
final class ExpiringToken: AuthHeaderProvider {
    private struct State { var calls = 0; var expired = false; var refreshes = 0; var expiredRequests = 0 }
    private let state = Locked(State())
    private let valid: String
    private let every: Int

    init(user: String, password: String, expireEvery: Int) {
        valid = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        every = expireEvery
    }

    func header() async throws -> (name: String, value: String) {
        state.withLock { s in
            s.calls += 1
            if s.calls % every == 0 { s.expired = true }
            if s.expired { s.expiredRequests += 1 }
            return ("Authorization", s.expired ? "Bearer expired" : valid)
        }
    }

    func refresh() async throws -> Bool {
        state.withLock { s in
            s.expired = false
            s.refreshes += 1
            return true
        }
    }

    var refreshes: Int { state.withLock { $0.refreshes } }
    var expiredRequests: Int { state.withLock { $0.expiredRequests } }
}
