import Foundation
import Testing
@testable import OfflineStore

/// Blob attributes without a server: files, permissions, references, sweeping, bad input.
@Suite struct BlobLocalTests {
    static let photos = CollectionDescriptor("photos", blobFields: [BlobField("image")])

    @Test func sha256MatchesKnownVectorsAndChunking() {
        #expect(SHA256.hex(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hex(of: long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        let data = BlobTestSupport.bytes(10_007, seed: 3)
        var pieces = SHA256()
        var offset = 0
        for size in [1, 63, 64, 65, 1000, 7] + Array(repeating: 997, count: 9) where offset < data.count {
            let end = min(data.count, offset + size)
            pieces.update(data[offset..<end])
            offset = end
        }
        pieces.update(data[offset...])
        #expect(pieces.hexDigest() == SHA256.hex(of: data))
    }

    @Test func attachedBytesLiveInPrivateFilesAndTheJSONHoldsAReference() async throws {
        try await withTemporaryStore(collections: [Self.photos]) { store in
            let photos = store.collection("photos")
            try await photos.create(["id": "p1", "title": "cat"])
            let bytes = BlobTestSupport.bytes(70_000, seed: 1)
            let ref = try await photos.attach("p1", field: "image", data: bytes, mimetype: "image/png")
            #expect(ref.size == 70_000 && ref.sha256 == SHA256.hex(of: bytes) && ref.mimetype == "image/png")
            let object = try #require(try photos.find("p1"))
            #expect(object["image"] == ref.json)
            #expect(object["title"] == "cat")
            #expect(try store.onlyEntry("photos", "p1").kind == .create)  // coalesced into the pending create
            let url = try await photos.blobURL("p1", field: "image")
            #expect(try Data(contentsOf: url) == bytes)
            #expect(try BlobTestSupport.independentSHA256(url) == ref.sha256)
            #expect(try BlobTestSupport.permissions(store.path + ".blobs") == 0o700)
            #expect(try BlobTestSupport.permissions(url.path) == 0o600)
            #expect(try photos.blobStatus("p1", field: "image")?.isPending == true)
            #expect(!url.lastPathComponent.contains("p1"))
        }
    }

    @Test func replacedClearedAndDeletedBlobsLoseTheirFiles() async throws {
        let notes = CollectionDescriptor("notes", blobFields: [BlobField("file")], localOnly: true)
        try await withTemporaryStore(collections: [notes]) { store in
            let c = store.collection("notes")
            try await c.create(["id": "a"])
            try await c.create(["id": "b"])
            try await c.attach("a", field: "file", data: Data("one".utf8))
            try await c.attach("b", field: "file", data: Data("bee".utf8))
            #expect(BlobTestSupport.files(of: store).count == 2)
            try await c.attach("a", field: "file", data: Data("two".utf8))  // replaces: the old file goes
            #expect(BlobTestSupport.files(of: store).count == 2)
            #expect(try await c.blobData("a", field: "file") == Data("two".utf8))
            try await c.patch("a", ["file": .null])  // cleared
            try await c.destroy("b")                  // deleted
            #expect(BlobTestSupport.files(of: store).count == 2, "nothing is removed before a sweep")
            #expect(try store.sweepBlobs() == 2)
            #expect(BlobTestSupport.files(of: store).isEmpty)
            #expect(try c.blobStatus("a", field: "file") == nil)
        }
    }

    @Test func badInputIsATypedErrorAndChangesNothing() async throws {
        try await withTemporaryStore(collections: [Self.photos]) { store in
            let photos = store.collection("photos")
            try await photos.create(["id": "p1", "title": "cat"])
            let before = try photos.object("p1")
            let entries = try store.queueEntries(collection: "photos", id: "p1")

            let missing = await #expect(throws: OfflineStoreError.self) {
                try await photos.attach("p1", field: "image", file: URL(fileURLWithPath: "/nonexistent/\(UUID()).png"))
            }
            #expect(missing?.code == .notFound)
            let directory = await #expect(throws: OfflineStoreError.self) {
                try await photos.attach("p1", field: "image", file: URL(fileURLWithPath: NSTemporaryDirectory()))
            }
            #expect(directory?.code == .notFound)
            let undeclared = await #expect(throws: OfflineStoreError.self) {
                try await photos.attach("p1", field: "title", data: Data("x".utf8))
            }
            #expect(undeclared?.code == .schemaViolation)
            let noObject = await #expect(throws: OfflineStoreError.self) {
                try await photos.attach("nope", field: "image", data: Data("x".utf8))
            }
            #expect(noObject?.code == .notFound)
            let badMime = await #expect(throws: OfflineStoreError.self) {
                try await photos.attach("p1", field: "image", data: Data("x".utf8), mimetype: "a\r\nb")
            }
            #expect(badMime?.code == .invalidOperation)
            let forged = await #expect(throws: OfflineStoreError.self) {
                try await photos.patch("p1", ["image": "not a reference"])
            }
            #expect(forged?.code == .schemaViolation)
            let noBlob = await #expect(throws: OfflineStoreError.self) { try await photos.blobURL("p1", field: "image") }
            #expect(noBlob?.code == .notFound)

            #expect(try photos.object("p1") == before)
            #expect(try store.queueEntries(collection: "photos", id: "p1") == entries)
            #expect(BlobTestSupport.files(of: store).isEmpty)
            #expect(try photos.blobStatus("p1", field: "image") == nil)
        }
    }

    @Test func blobFieldDeclarationsAreChecked() async throws {
        try await withTemporaryStore { store in
            let twice = #expect(throws: OfflineStoreError.self) {
                try store.register(CollectionDescriptor("x", blobFields: [BlobField("f"), BlobField("f")]))
            }
            #expect(twice?.code == .invalidFieldPath)
            let bad = #expect(throws: OfflineStoreError.self) {
                try store.register(CollectionDescriptor("y", blobFields: [BlobField("a b")]))
            }
            #expect(bad?.code == .invalidFieldPath)
            try store.register(CollectionDescriptor("z", blobFields: [BlobField("f", download: .eager)]))
            #expect(try store.descriptor(of: "z").blobField(named: "f")?.download == .eager)
        }
    }
}
