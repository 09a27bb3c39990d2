import Foundation
import Testing
@testable import OfflineStore

/// The REST blob route without a server (scripted answers): which fields are sent, where
/// downloads go and which of them carry the configured credentials.
@Suite("REST blob route")
struct RESTBlobRouteTests {
    static let reference = BlobReference(id: "b1", size: 3, sha256: String(repeating: "ab", count: 32), mimetype: "image/png")

    func backend(_ answers: [HTTPResponse]) -> (RESTBackend, ScriptedTransport) {
        let transport = ScriptedTransport(answers)
        let backend = RESTBackend(configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!, resources: RailsServer.resources,
                                                       headers: ["Authorization": "Bearer secret"]),
                                  transport: transport)
        return (backend, transport)
    }

    @Test func blobServerFieldsAreNeverSentButTheReferenceIs() throws {
        let mapping = RESTBodyMapping(resource: try #require(RailsServer.resources["products"]))
        let fields = try mapping.remoteFields(["id": "7", "name": "Lamp", "image": Self.reference.json, "image_url": "/x",
                                               "image_sha256": "ab", "image_size": 3, "image_filename": "f",
                                               "image_content_type": "image/png"], includeID: false)
        #expect(fields == ["name": "Lamp", "image": Self.reference.json])
        let (backend, _) = backend([])
        #expect(backend.blobMetadataFields == ["image_content_type", "image_filename", "image_sha256", "image_size", "image_url"])
    }

    @Test func downloadsSendCredentialsOnlyToTheServersOrigin() async throws {
        try await withTemporaryDirectory { directory in
            let ok = HTTPResponse(status: 200, headers: [:], body: Data("abc".utf8))
            let (backend, transport) = backend([ok, ok])
            let file = URL(fileURLWithPath: directory.path("blob"))
            func download(_ url: String, sha256: String = Self.reference.sha256) async throws -> Bool {
                try await backend.downloadBlob(collection: "products", id: "5", field: "image", reference: Self.reference,
                                               record: ["id": "5", "image_url": .string(url), "image_sha256": .string(sha256)],
                                               to: file)
            }
            let own = try await download("/products/5/image")
            let elsewhere = try await download("http://cdn.example.invalid/products/5/image")
            let otherBytes = try await download("/products/5/image", sha256: "other")
            let notHTTP = try await download("file:///etc/passwd")
            #expect(own && elsewhere)
            #expect(!otherBytes, "a record naming other bytes is not fetched")
            #expect(!notHTTP)
            let sent = transport.sent
            #expect(sent.map(\.url.absoluteString) == ["http://127.0.0.1:9/products/5/image", "http://cdn.example.invalid/products/5/image"])
            #expect(sent.first?.headers.contains { $0.0 == "Authorization" } == true)
            #expect(sent.last?.headers.contains { $0.0 == "Authorization" } == false)
        }
    }

    @Test func aFieldWithoutARouteIsAConfigurationError() async throws {
        try await withTemporaryDirectory { directory in
            let (backend, transport) = backend([])
            let file = URL(fileURLWithPath: directory.path("blob"))
            try Data("abc".utf8).write(to: file)
            let upload = BlobUpload(collection: "products", id: "5", field: "manual", file: file, reference: Self.reference, baseVersion: "1")
            let error = await #expect(throws: OfflineStoreError.self) { try await backend.uploadBlob(upload) }
            #expect(error?.code == .configuration && error?.message.contains("manual") == true)
            #expect(transport.sent.isEmpty)
        }
    }
}
