import Foundation
@testable import OfflineStore
import Testing

/// `attach` in the write mode that awaits the server (`awaitingServer`) on the Rails app: the
/// call succeeds only once the server holds the blob. Before, an upload that stopped or was
/// refused left the blob pending or failed while `attach` returned as if it were stored.
@Suite("Blob attach awaiting the server (Rails)")
struct RESTBlobAwaitingServerTests {
    static let awaiting = ObjectStore.Configuration.with { $0.writeMode = .awaitingServer }

    /// A product on the server, made through `store`; returns its server id.
    static func product(_ store: ObjectStore) async throws -> String {
        let created = try await store.collection("products").create(["name": .string(RailsServer.uniqueName("lamp")), "price": 12.5])
        return try #require(created["id"]?.stringValue)
    }

    @Test(.liveServer) func anUploadThatStopsOrIsRefusedFailsTheCallAndAStoredOneSucceeds() async throws {
        try await withTemporaryDirectory { directory in
            let wire = RESTBlobRailsTests.uploadWire()
            let store = try RESTBlobRailsTests.store(directory, "a.sqlite", transport: wire, configuration: Self.awaiting)
            defer { try? store.close() }
            let products = store.collection("products")
            let id = try await Self.product(store)

            // The server answers 503 to the upload: the call throws that, the blob waits.
            wire.inject(.status(503))
            let stopped = await #expect(throws: OfflineStoreError.self) {
                try await products.attach(id, field: "image", data: BlobTestSupport.bytes(4_096, seed: 31))
            }
            #expect(stopped?.code == .server && stopped?.status == 503)
            #expect(try products.blobStatus(id, field: "image").map { $0.isPending && $0.status == 503 } == true)
            #expect(try products.find(id)?["image"] != nil, "the edit itself is kept")
            #expect(try await store.flush().blobsUploaded == 1)

            // Refused (the app's limit is 1 MiB): the call throws `failedEntry` with the status.
            let refused = await #expect(throws: OfflineStoreError.self) {
                try await products.attach(id, field: "image", data: BlobTestSupport.bytes(1_048_577, seed: 32))
            }
            #expect(refused?.code == .failedEntry && refused?.status == 413)
            #expect(refused?.message.contains("retryBlobUpload") == true)
            #expect(try products.blobStatus(id, field: "image").map { $0.isFailed && $0.status == 413 } == true)

            // Stored: the call returns, and the server has the bytes.
            let small = BlobTestSupport.bytes(2_048, seed: 33)
            let reference = try await products.attach(id, field: "image", data: small)
            #expect(try products.blobStatus(id, field: "image").map { !$0.isPending && !$0.isFailed } == true)
            let server = try #require(try await RailsServer.request("GET", "/products/\(id).json").json)
            #expect(server["image_sha256"]?.stringValue == reference.sha256)
        }
    }

    @Test func aPendingOrRefusedUploadIsTheCallsErrorAndADoneOneIsNone() {
        let stop = OfflineStoreError(.timeout, "no answer in time")
        #expect(AwaitedUploadRule.failure(.done, place: "p/1", stop: stop) == nil)
        #expect(AwaitedUploadRule.failure(.pending(error: nil, status: nil), place: "p/1", stop: stop)?.message == stop.message)
        #expect(AwaitedUploadRule.failure(.pending(error: "changed", status: 412), place: "p/1", stop: nil)?.code == .conflict)
        #expect(AwaitedUploadRule.failure(.refused(error: "too big", status: 413), place: "p/1", stop: stop)?.code == .failedEntry)
    }
}
