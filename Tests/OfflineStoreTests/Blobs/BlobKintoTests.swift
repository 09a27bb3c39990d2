import Foundation
import Testing
@testable import OfflineStore

/// Blob round-trips through the real Kinto with the real kinto-attachment plugin.
@Suite struct BlobKintoTests {
    static func descriptor(_ download: BlobDownloadPolicy = .lazy) -> CollectionDescriptor {
        CollectionDescriptor("docs", blobFields: [BlobField("file", download: download)])
    }

    /// A store on the real Kinto in `directory`, with the docs collection registered.
    static func store(_ directory: TemporaryDirectory, _ name: String, bucket: String,
                      download: BlobDownloadPolicy = .lazy) throws -> ObjectStore {
        // Each edit awaits the server, so the test sees what the upload did when attach returns.
        let store = try ObjectStore(path: directory.path(name), configuration: .with { $0.writeMode = .awaitingServer },
                                    backend: try KintoServer.backend(bucket: bucket))
        try store.register(descriptor(download))
        return store
    }

    @Test(.liveServer) func blobRoundTripsThroughKintoAttachment() async throws {
        try await withTemporaryDirectory { directory in
            let bucket = KintoServer.uniqueName("b")
            let a = try Self.store(directory, "a.sqlite", bucket: bucket)
            defer { try? a.close() }
            let docs = a.collection("docs")
            try await docs.create(["id": "d1", "title": "report"])
            let bytes = BlobTestSupport.bytes(300_001, seed: 7)
            let ref = try await docs.attach("d1", field: "file", data: bytes, mimetype: "application/pdf")
            #expect(try docs.blobStatus("d1", field: "file").map { !$0.isPending && !$0.isFailed && $0.attempts == 1 } == true)
            #expect(try a.queueCount() == 0)

            // The server holds the reference and the plugin's metadata for the same bytes.
            let server = try #require(try await KintoServer.backend(bucket: bucket).fetch(collection: "docs", id: "d1"))
            #expect(server.record?["file"] == ref.json)
            #expect(server.record?["attachment"]?["hash"]?.stringValue == ref.sha256)
            #expect(server.record?["attachment"]?["size"]?.intValue == 300_001)
            #expect(server.record?["attachment"]?["location"]?.stringValue?.hasPrefix("http://127.0.0.1:") == true)
            #expect(try docs.object("d1")?.serverVersion == server.version, "the upload's new version was adopted")

            // A second client refreshes (lazy: nothing downloaded yet), then reads identical bytes.
            let b = try Self.store(directory, "b.sqlite", bucket: bucket)
            defer { try? b.close() }
            let pulled = try await b.refresh()
            #expect(pulled.blobsDownloaded == 0 && BlobTestSupport.files(of: b).isEmpty)
            let url = try await b.collection("docs").blobURL("d1", field: "file")
            #expect(try Data(contentsOf: url) == bytes)
            #expect(try BlobTestSupport.independentSHA256(url) == ref.sha256)
            #expect(try BlobTestSupport.permissions(url.path) == 0o600)
            #expect(try await b.collection("docs").blobURL("d1", field: "file") == url, "read again from the store")

            // An edit after the upload keeps the plugin's metadata (no 400), and a replacement travels too.
            try await docs.patch("d1", ["title": "report v2"])
            let second = BlobTestSupport.bytes(5_000, seed: 8)
            let ref2 = try await docs.attach("d1", field: "file", data: second)
            #expect(BlobTestSupport.files(of: a).count == 1, "the replaced blob's file is gone")
            try await b.refresh()
            #expect(try b.collection("docs").find("d1")?["title"] == "report v2")
            #expect(try await b.collection("docs").blobData("d1", field: "file") == second)
            #expect(BlobTestSupport.files(of: b).count == 1)
            #expect(ref2.id != ref.id)

            // Deleting the object removes its blob file once the delete is on the server.
            try await docs.destroy("d1")
            #expect(try a.queueCount() == 0)
            #expect(BlobTestSupport.files(of: a).isEmpty)
            try await b.refresh()
            #expect(BlobTestSupport.files(of: b).isEmpty)
        }
    }

    @Test(.liveServer) func eagerFieldsDownloadDuringRefresh() async throws {
        try await withTemporaryDirectory { directory in
            let bucket = KintoServer.uniqueName("b")
            let a = try Self.store(directory, "a.sqlite", bucket: bucket)
            defer { try? a.close() }
            try await a.collection("docs").create(["id": "e1"])
            let ref = try await a.collection("docs").attach("e1", field: "file", data: Data("eager bytes".utf8))
            let c = try Self.store(directory, "c.sqlite", bucket: bucket, download: .eager)
            defer { try? c.close() }
            let report = try await c.refresh()
            #expect(report.blobsDownloaded == 1)
            #expect(try c.collection("docs").blobStatus("e1", field: "file")?.reference == ref)
            c.setOffline(true)  // already local: reading needs no network
            #expect(try await c.collection("docs").blobData("e1", field: "file") == Data("eager bytes".utf8))
        }
    }

    @Test(.liveServer) func offlineAttachIsQueuedSurvivesARestartAndUploadsOnFlush() async throws {
        try await withTemporaryDirectory { directory in
            let bucket = KintoServer.uniqueName("b")
            let bytes = BlobTestSupport.bytes(123_457, seed: 9)
            do {
                let a = try Self.store(directory, "a.sqlite", bucket: bucket)
                a.setOffline(true)
                try await a.collection("docs").create(["id": "o1", "n": 1])
                try await a.collection("docs").attach("o1", field: "file", data: bytes)
                #expect(try a.collection("docs").blobStatus("o1", field: "file")?.isPending == true)
                #expect(try a.queueCount() == 1)
                try a.close()  // the queue and the blob's pending upload are durable
            }
            let observer = try KintoServer.backend(bucket: bucket)
            try await observer.prepare(collection: "docs")
            #expect(try await observer.fetch(collection: "docs", id: "o1") == nil)

            let reopened = try Self.store(directory, "a.sqlite", bucket: bucket)
            defer { try? reopened.close() }
            #expect(try reopened.collection("docs").blobStatus("o1", field: "file")?.isPending == true)
            let report = try await reopened.flush()
            #expect(report.pushed == 1 && report.blobsUploaded == 1 && report.blobsWaiting == 0)
            let server = try #require(try await KintoServer.backend(bucket: bucket).fetch(collection: "docs", id: "o1"))
            #expect(server.record?["attachment"]?["hash"]?.stringValue == SHA256.hex(of: bytes))
            #expect(server.record?["n"] == 1)

            let b = try Self.store(directory, "b.sqlite", bucket: bucket)
            defer { try? b.close() }
            try await b.refresh()
            #expect(try await b.collection("docs").blobData("o1", field: "file") == bytes)
        }
    }

    @Test(.liveServer) func kintoRefusesTwoBlobFieldsPerObject() async throws {
        try await withTemporaryDirectory { directory in
            let store = try ObjectStore(path: directory.path("s.sqlite"), backend: try KintoServer.backend())
            defer { try? store.close() }
            let error = #expect(throws: OfflineStoreError.self) {
                try store.register(CollectionDescriptor("two", blobFields: [BlobField("a"), BlobField("b")]))
            }
            #expect(error?.code == .configuration)
            #expect(store.collections().isEmpty)
        }
    }
}
