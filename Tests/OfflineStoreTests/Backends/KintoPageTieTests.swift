import Foundation
import OfflineStore
import Testing

/// A Kinto page that ends at a timestamp a record shares with a tombstone (another client's
/// `last_modified` in the past, which Kinto's memory backend stores as it is). Kinto lists the
/// live record first and its `Next-Page` continues after the timestamp, so the tombstone was
/// skipped, by the departure pull of a scoped collection too, which pages the same way from the
/// same `_since` every time: the deleted record stayed local for good (the failure of
/// `ScopedConcurrentWritersTests`). The next page now starts at the timestamp.
@Suite(.serialized) struct KintoPageTieTests {
    let http = URLSessionTransport()

    private func send(_ method: String, _ url: URL, _ body: JSONValue? = nil) async throws -> JSONValue {
        var headers = [("Authorization", "Basic " + Data("alice:secret".utf8).base64EncodedString())]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let reply = try await http.send(HTTPRequest(method: method, url: url, headers: headers,
                                                    body: body.map { Data($0.serialized().utf8) }))
        guard (200..<300).contains(reply.status) else { throw HarnessError("\(method) \(url.path): HTTP \(reply.status)") }
        return try JSONValue(parsing: reply.body)
    }

    @Test(.liveServer) func aTombstoneSharingAPageEndIsNotSkipped() async throws {
        let server = try KintoServer.url()
        let bucket = KintoServer.uniqueName("tie")
        let backend = KintoServer.backend(server: server, bucket: bucket, pageSize: 2)
        var shared = CollectionDescriptor("shared")
        shared.syncScope = ServerQuery([.equal("kind", "in")])
        try await withTemporaryStore(backend: backend, collections: [shared]) { store in
            try await backend.prepare(collection: "shared")
            let records = server.appendingPathComponent("buckets/\(bucket)/collections/shared/records")
            _ = try await send("PUT", records.appendingPathComponent("x"), ["data": ["kind": "in"]])
            _ = try await send("PUT", records.appendingPathComponent("a"), ["data": ["kind": "in"]])
            try await store.refresh()
            #expect(try store.collection("shared").find("x") != nil)

            // x's tombstone at T, then z above it, then y written with T itself: in the past, so Kinto keeps it.
            let tombstone = try await send("DELETE", records.appendingPathComponent("x"))
            let stamp = try #require(tombstone["data"]?["last_modified"]?.intValue)
            _ = try await send("PUT", records.appendingPathComponent("z"), ["data": ["kind": "out"]])
            let tie = try await send("PUT", records.appendingPathComponent("y"), ["data": ["kind": "out", "last_modified": .int(stamp)]])
            #expect(tie["data"]?["last_modified"]?.intValue == stamp, "Kinto kept the past timestamp: y and x's tombstone share it")

            // The departure pull lists a, y, x's tombstone, z in pages of 2: the first ends at y.
            try await store.refresh()
            #expect(try store.collection("shared").find("x") == nil)
            #expect(try store.collection("shared").find("a") != nil)
        }
    }
}
