import Foundation
import Testing
@testable import OfflineStore

/// Blobs through the REST backend's multipart route on the real Rails app (products'
/// `image`): offline attach then create-and-upload, a second client's download, and the
/// failure paths (refused, server error, lost answer).
@Suite("REST blobs on Rails")
struct RESTBlobRailsTests {
    static let products = CollectionDescriptor("products", blobFields: [BlobField("image")])
    static let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }

    /// A transport that breaks only image uploads (creates and edits pass).
    static func uploadWire() -> WireFaultTransport {
        WireFaultTransport(base: URLSessionTransport(), isWrite: { $0.method == "POST" && $0.url.path.hasSuffix("/image") })
    }

    static func store(_ directory: TemporaryDirectory, _ name: String, transport: any HTTPTransport = URLSessionTransport(),
                      configuration: ObjectStore.Configuration = deferred) throws -> ObjectStore {
        let store = try ObjectStore(path: directory.path(name), configuration: configuration,
                                    backend: try RailsServer.backend(transport: transport))
        try store.register(products)
        return store
    }

    /// Creates a product offline with an attached image; returns its temporary id.
    static func offlineProduct(_ store: ObjectStore, bytes: Data) async throws -> (id: String, reference: BlobReference) {
        let created = try await store.collection("products").create(["name": .string(RailsServer.uniqueName("lamp")), "price": 12.5])
        let id = try #require(created["id"]?.stringValue)
        let reference = try await store.collection("products").attach(id, field: "image", data: bytes, mimetype: "image/png")
        return (id, reference)
    }

    @Test(.liveServer) func offlineAttachIsCreatedThenUploadedAndAnotherClientReadsTheSameBytes() async throws {
        try await withTemporaryDirectory { directory in
            let wire = RailsServer.wire()
            let a = try Self.store(directory, "a.sqlite", transport: wire)
            defer { try? a.close() }
            let bytes = BlobTestSupport.bytes(300_001, seed: 21)
            let (temporary, ref) = try await Self.offlineProduct(a, bytes: bytes)
            #expect(try a.collection("products").blobStatus(temporary, field: "image")?.isPending == true)

            let report = try await a.flush()

            #expect(report.pushed == 1 && report.blobsUploaded == 1 && report.blobsWaiting == 0)
            let id = try a.serverID(for: temporary, in: "products")
            #expect(id != temporary)
            #expect(wire.requestLines.filter { $0.hasPrefix("POST") } == ["POST /products.json", "POST /products/\(id)/image"],
                    "create first, then the upload to the server-assigned id")
            let status = try #require(try a.collection("products").blobStatus(id, field: "image"))
            #expect(!status.isPending && !status.isFailed && status.attempts == 1)
            let server = try #require(try await RailsServer.request("GET", "/products/\(id).json").json)
            #expect(server["image"] == ref.json, "the reference travelled with the create")
            #expect(server["image_sha256"]?.stringValue == ref.sha256)
            #expect(server["image_size"]?.intValue == 300_001)
            #expect(server["image_content_type"]?.stringValue == "image/png")
            #expect(try a.collection("products").object(id)?.serverVersion == server["lock_version"]?.intValue.map(String.init),
                    "the upload's new version was adopted")

            // A second client pulls (lazy: nothing downloaded), then reads identical bytes.
            let b = try Self.store(directory, "b.sqlite")
            defer { try? b.close() }
            // Another client's refresh follows keyset Link pages of 2 while other tests write products.
            let pulled = try await b.refresh()
            #expect(pulled.blobsDownloaded == 0 && BlobTestSupport.files(of: b).isEmpty)
            let url = try await b.collection("products").blobURL(id, field: "image")
            #expect(try Data(contentsOf: url) == bytes)
            #expect(try BlobTestSupport.independentSHA256(url) == ref.sha256)

            // An edit after the upload does not send the server's image fields, and keeps them.
            try await a.collection("products").patch(id, ["price": 14.0])
            let edited = try await a.flush()
            #expect(edited.pushed == 1 && edited.failed == 0 && edited.conflicts == 0)
            let after = try #require(try await RailsServer.request("GET", "/products/\(id).json").json)
            #expect(after["price"]?.stringValue == "14.0" && after["image_sha256"]?.stringValue == ref.sha256)
        }
    }

    @Test(.liveServer) func refusedUploadIsFailedUntilRetriedAndTheObjectIsKept() async throws {
        try await withTemporaryDirectory { directory in
            let wire = Self.uploadWire()
            let a = try Self.store(directory, "a.sqlite", transport: wire)
            defer { try? a.close() }
            let tooBig = BlobTestSupport.bytes(1_048_577, seed: 22)  // the app's limit is 1 MiB
            let (temporary, _) = try await Self.offlineProduct(a, bytes: tooBig)

            let report = try await a.flush()

            #expect(report.pushed == 1 && report.blobsUploaded == 0 && report.blobsWaiting == 1)
            let id = try a.serverID(for: temporary, in: "products")
            let products = a.collection("products")
            let failed = try #require(try products.blobStatus(id, field: "image"))
            #expect(failed.isFailed && !failed.isPending && failed.status == 413 && failed.attempts == 1)
            #expect(failed.lastError?.contains("413") == true && failed.lastError?.contains("at most 1048576") == true)
            let server = try #require(try await RailsServer.request("GET", "/products/\(id).json").json)
            #expect(server["image_sha256"] == .null, "the server stored nothing")
            #expect(try products.find(id)?["name"] == server["name"], "the object itself was not lost")

            // Not retried by itself; retryBlobUpload queues it again.
            _ = try await a.flush()
            #expect(wire.writeCount == 1)
            try products.retryBlobUpload(id, field: "image")
            #expect(try products.blobStatus(id, field: "image")?.isPending == true)
            _ = try await a.flush()
            #expect(wire.writeCount == 2)
            #expect(try products.blobStatus(id, field: "image").map { $0.isFailed && $0.attempts == 2 } == true)

            // A smaller replacement uploads (a pending blob cannot be "retried").
            let small = BlobTestSupport.bytes(4_096, seed: 23)
            let ref = try await products.attach(id, field: "image", data: small)
            let notFailed = #expect(throws: OfflineStoreError.self) { try products.retryBlobUpload(id, field: "image") }
            #expect(notFailed?.code == .notFound)
            let fixed = try await a.flush()
            #expect(fixed.blobsUploaded == 1 && fixed.blobsWaiting == 0)
            let stored = try #require(try await RailsServer.request("GET", "/products/\(id).json").json)
            #expect(stored["image_sha256"]?.stringValue == ref.sha256)
        }
    }

    @Test(.liveServer) func serverErrorAndLostAnswerKeepTheUploadPendingAndStopTheFlush() async throws {
        try await withTemporaryDirectory { directory in
            let wire = Self.uploadWire()
            let a = try Self.store(directory, "a.sqlite", transport: wire)
            defer { try? a.close() }
            let bytes = BlobTestSupport.bytes(70_000, seed: 24)
            let (temporary, ref) = try await Self.offlineProduct(a, bytes: bytes)
            let products = a.collection("products")

            // 503: the create is applied, the upload stays pending, the flush stops with the error.
            wire.inject(.status(503))
            let interrupted = await #expect(throws: OfflineStoreError.self) { try await a.flush() }
            #expect(interrupted?.code == .server && interrupted?.status == 503)
            #expect(interrupted?.report?.pushed == 1 && interrupted?.report?.blobsWaiting == 1)
            let id = try a.serverID(for: temporary, in: "products")
            #expect(try products.blobStatus(id, field: "image").map { $0.isPending && $0.attempts == 1 && $0.status == 503 } == true)
            #expect(try a.queueCount() == 0)

            // The server stores it but the answer is lost: still pending, the flush stops with a timeout.
            wire.inject(.lostResponse)
            let lost = await #expect(throws: OfflineStoreError.self) { try await a.flush() }
            #expect(lost?.code == .timeout)
            #expect(try products.blobStatus(id, field: "image").map { $0.isPending && $0.attempts == 2 } == true)
            let applied = try #require(try await RailsServer.request("GET", "/products/\(id).json").json)
            #expect(applied["image_sha256"]?.stringValue == ref.sha256)

            // The next flush resends; the server answers 412 (its version moved), and the record
            // naming our bytes marks the upload done.
            let done = try await a.flush()
            #expect(done.blobsUploaded == 1 && done.blobsWaiting == 0)
            #expect(wire.writeCount == 3)
            #expect(try products.blobStatus(id, field: "image").map { !$0.isPending && !$0.isFailed && $0.attempts == 3 } == true)
            #expect(try products.object(id)?.serverVersion == applied["lock_version"]?.intValue.map(String.init))
            let b = try Self.store(directory, "b.sqlite")
            defer { try? b.close() }
            try await b.refresh()
            #expect(try await b.collection("products").blobData(id, field: "image") == bytes)
        }
    }
}
