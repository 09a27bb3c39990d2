import Foundation
import Testing
@testable import OfflineStore

/// Credentials stay out of logs, errors and the store file; files are private; ids cannot
/// traverse into other collections; TLS verification cannot be turned off (SPEC §11).
@Suite("Security checks")
struct SecurityTests {
    static let password = "pw-\(UUID().uuidString)"

    /// Every place a secret must never appear: its plain form and its Basic-auth encoding.
    static func leaks(in text: String, user: String) -> [String] {
        let basic = Data("\(user):\(password)".utf8).base64EncodedString()
        return [password, basic].filter { text.contains($0) }
    }

    @Test(.liveServer) func credentialsStayOutOfLogsErrorsAndTheStoreFile() async throws {
        let box = CapturingLogHandler.Box()
        var configuration = ObjectStore.Configuration()
        configuration.logger = CapturingLogHandler.logger(into: box)
        configuration.writeMode = .deferred
        let user = "carol"
        var said: [String] = []
        try await withTemporaryDirectory { directory in
            let path = directory.path("secret.sqlite")
            // A real Kinto (any password is accepted), a refused port and a silent server: success, offline, timeout.
            let real = try KintoServer.url()
            let closed = URL(string: "http://127.0.0.1:\(KintoServer.closedPort())/v1")!
            try await KintoServer.withSilentServer { port in
                let silent = URL(string: "http://127.0.0.1:\(port)/v1")!
                for server in [real, closed, silent] {
                    let backend = KintoServer.backend(server: server, bucket: KintoServer.uniqueName("sec"),
                                                          auth: .basic(user: user, password: Self.password), timeout: .seconds(1),
                                                          pageSize: 10_000)
                    said.append(String(describing: backend.configuration))
                    said.append(String(reflecting: backend.configuration))
                    let store = try ObjectStore(path: path, configuration: configuration, backend: backend)
                    try store.register(CollectionDescriptor("notes"))
                    _ = try await store.collection("notes").create(["text": "hello"])
                    do { said.append(String(describing: try await store.sync())) } catch {
                        said.append(String(describing: error))
                        said.append(String(reflecting: error))
                        said.append(error.localizedDescription)
                    }
                    try store.close()
                }
            }
            // A 401 whose body echoes the Authorization header back.
            let echo = ScriptedTransport([ScriptedTransport.json(401, ["message": .string("bad \(Self.password)")])])
            let backend = KintoServer.backend(server: KintoServer.fakeAddress, bucket: "b",
                                                  auth: .basic(user: user, password: Self.password), timeout: .seconds(30),
                                                  pageSize: 10_000, transport: echo)
            do { _ = try await backend.capabilities() } catch { said.append(String(describing: error)) }
            #expect(said.count >= 7)

            var files = ""
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
                let data = try Data(contentsOf: directory.url.appendingPathComponent(name))
                files += String(decoding: data, as: UTF8.self)
            }
            #expect(files.contains("hello"), "the store file should hold the edit (the search reads the right bytes)")
            #expect(Self.leaks(in: files, user: user).isEmpty, "a credential is in the store file")
        }
        #expect(Self.leaks(in: box.text, user: user).isEmpty, "a credential was logged: \(box.text)")
        let errors = said.filter { !$0.contains("bad ") }.joined(separator: "\n")
        #expect(Self.leaks(in: errors, user: user).isEmpty, "a credential is in an error or description: \(errors)")
    }

    @Test func theStoreFileAndItsWALAndSharedMemoryArePrivate() async throws {
        let previous = umask(0o022)  // the usual umask: new files would be world-readable
        defer { umask(previous) }
        try await withTemporaryDirectory { directory in
            let path = directory.path("private.sqlite")
            let store = try ObjectStore(path: path)
            try store.register(CollectionDescriptor("notes"))
            _ = try await store.collection("notes").create(["text": "hello"])
            for file in [path, path + "-wal", path + "-shm"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: file)
                let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
                #expect(mode == 0o600, "\(file) has mode \(String(mode ?? -1, radix: 8))")
            }
            try store.close()
        }
    }

    @Test(.liveServer) func idsCannotTraverseIntoOtherCollections() async throws {
        let recorder = RecordingTransport(base: URLSessionTransport())
        let bucket = KintoServer.uniqueName("trav")
        let backend = try KintoServer.backend(bucket: bucket, timeout: .seconds(30), pageSize: 10_000, transport: recorder)
        let hostile = ["../other/records/x", "..%2Fother%2Frecords%2Fx", "a/../../other", "x?_since=0", "x#frag", "%2e%2e"]
        // With the Kinto backend, such ids are refused at once, typed, and nothing is written.
        try await withTemporaryStore(backend: backend, collections: [CollectionDescriptor("items")]) { (store: ObjectStore) async throws in
            for id in hostile {
                await #expect { try await store.collection("items").create(["id": .string(id)]) } throws: {
                    ($0 as? OfflineStoreError)?.code == .invalidID
                }
            }
            #expect(try store.queueCount() == 0)
        }
        // Made offline by a store without a backend, then flushed: each id stays one encoded path segment.
        try await withTemporaryDirectory { directory in
            let path = directory.path("offline.sqlite")
            let offline = try ObjectStore(path: path)
            try offline.register(CollectionDescriptor("items"))
            for id in hostile { _ = try await offline.collection("items").create(["id": .string(id)]) }
            try offline.close()
            let store = try ObjectStore(path: path, backend: backend)
            defer { try? store.close() }
            _ = try? await store.flush()
            let paths = recorder.paths
            #expect(!paths.isEmpty)
            for path in paths where path.contains("/records") {
                #expect(path.hasPrefix("/v1/buckets/\(bucket)/collections/items/records"), "request left the collection: \(path)")
            }
            for body in recorder.bodies {
                #expect(!body.contains("collections/other"), "a batch path left the collection: \(body)")
            }
            // Nothing reached another collection, and no hostile id is stored on the server.
            let other = try await URLSessionTransport().send(HTTPRequest(method: "GET",
                url: try KintoServer.url().appendingPathComponent("buckets/\(bucket)/collections/other/records"),
                headers: [("Authorization", KintoHarness.auth)]))
            #expect(other.status == 403 || other.status == 404)
            #expect(try store.queueCount() == hostile.count, "every hostile id is kept, failed, with its data")
        }
    }

    @Test func tlsVerificationIsOnByDefault() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await SelfSignedHTTPSServer.start(in: directory)
            await #expect(throws: TransportError.self) {
                _ = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: server.url, timeout: .seconds(5)))
            }
            #expect(server.wasReachedOverTLS(), "the probe never reached the server, so the refusal proves nothing")
            await server.stop()
        }
    }
}
