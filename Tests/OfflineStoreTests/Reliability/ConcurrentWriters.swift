import Foundation
import OfflineStore

/// Other clients of the same Kinto collection, writing over plain HTTP while the store
/// under test refreshes: single PUTs, batches of PUTs and DELETEs, and writes that carry a
/// client `last_modified` equal to the collection's current timestamp (colliding
/// timestamps, Kinto facts §6).
struct ConcurrentWriters: Sendable {
    let server: URL
    let bucket: String
    let collection: String
    let http = URLSessionTransport()

    private var records: URL {
        server.appendingPathComponent("buckets/\(bucket)/collections/\(collection)/records")
    }

    private func send(_ method: String, _ url: URL, _ body: JSONValue? = nil) async throws -> HTTPResponse {
        var headers = [("Authorization", KintoHarness.auth)]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return try await http.send(HTTPRequest(method: method, url: url, headers: headers,
                                               body: body.map { Data($0.serialized().utf8) }, timeout: .seconds(30)))
    }

    /// The timestamps a writer's collider writes were stored with in the past.
    struct PastStamps: Sendable {
        /// Every past timestamp a collider write was stored with.
        var all = Set<Int64>()
        /// Those the write reached the server at least `lookBack` after (by the wall clock).
        var late = Set<Int64>()

        mutating func formUnion(_ other: PastStamps) {
            all.formUnion(other.all)
            late.formUnion(other.late)
        }

        /// What no incremental pull promises to see: a past timestamp that reached the server
        /// a look-back or more after it (below a cursor that may have closed its window), and
        /// one that a page ended at where the pull after it need not read it again
        /// (``AnswerRecordingTransport/PageEnds``): a record sharing it may have been skipped.
        func unpromised(pageEnds: AnswerRecordingTransport.PageEnds) -> Set<Int64> {
            late.union(all.intersection(pageEnds.exposed()))
        }
    }

    /// Writer `kind` does `rounds` writes on ids of its own; returns how many requests the
    /// server accepted (2xx), how many it refused with a 409 (concurrent transactions), and
    /// the past timestamps its collider writes were stored with.
    ///
    /// A collider sends the collection timestamp it just read as `last_modified`. When nothing
    /// was written in between, Kinto bumps it (the collision of Kinto facts §6); when something
    /// was, Kinto keeps it as it is, in the past (Docs/Sync.md, look-back window). On the
    /// memory backend it then equals the timestamp of the record written last before the read:
    /// two records share one timestamp, which Kinto's pages (`last_modified > last seen`)
    /// cannot separate, so a page boundary between them skips one; a record stored so far in
    /// the past that a cursor already closed its window below it is never listed either
    /// (``PastStamps/unpromised(pageEnds:)``). A loaded machine, where the `GET` and the `PUT`
    /// are far apart, makes the second.
    func run(kind: Int, rounds: Int, seed: UInt64,
             lookBack: Duration = .seconds(5)) async throws -> (accepted: Int, conflicts: Int, past: PastStamps) {
        var random = ObjectStoreCrashTests.SeededGenerator(seed: seed)
        var accepted = 0, conflicts = 0
        var past = PastStamps()
        func count(_ status: Int) {
            if (200..<300).contains(status) || status == 404 { accepted += 1 } else if status == 409 { conflicts += 1 }
        }
        for n in 0..<rounds {
            let id = "w\(kind)-\(Int.random(in: 0..<15, using: &random))"
            switch kind {
            case 0:
                count(try await send("PUT", records.appendingPathComponent(id), ["data": ["v": .int(Int64(n)), "by": "single"]]).status)
            case 1:
                var requests: [JSONValue] = (0..<5).map { i in
                    ["method": "PUT", "path": .string(records.path + "/w1-\(Int.random(in: 0..<15, using: &random))"),
                     "body": ["data": ["v": .int(Int64(n * 10 + i)), "by": "batch"]]]
                }
                requests.append(["method": "DELETE", "path": .string(records.path + "/w1-\(Int.random(in: 0..<15, using: &random))")])
                let reply = try await send("POST", server.appendingPathComponent("batch"), ["requests": .array(requests)])
                for item in (try? JSONValue(parsing: reply.body))?["responses"]?.arrayValue ?? [] {
                    count(Int(item["status"]?.intValue ?? 0))
                }
            default:
                // A client timestamp equal to the collection's: a collision Kinto stores as-is.
                let head = try await send("GET", records.appending(queryItems: [URLQueryItem(name: "_limit", value: "1")]))
                let etag = head.header("ETag")?.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? ""
                var data: [String: JSONValue] = ["v": .int(Int64(n)), "by": "collider"]
                let stamp = Int64(etag)
                if let stamp { data["last_modified"] = .int(stamp) }
                let put = try await send("PUT", records.appendingPathComponent(id), ["data": .object(data)])
                count(put.status)
                guard (200..<300).contains(put.status), let stamp else { continue }
                // Stored with the very timestamp sent: not bumped, so it was in the past.
                guard (try? JSONValue(parsing: put.body))?["data"]?["last_modified"]?.intValue == stamp else { continue }
                past.all.insert(stamp)
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                if now - stamp >= Int64(lookBack.components.seconds * 1000) { past.late.insert(stamp) }
            }
        }
        return (accepted, conflicts, past)
    }

    /// The ids whose last change (a record or a tombstone) carries one of `stamps`
    /// (``PastStamps/unpromised(pageEnds:)``).
    func ids(lastChangedAt stamps: Set<Int64>) async throws -> Set<String> {
        guard !stamps.isEmpty else { return [] }
        let reply = try await send("GET", records.appending(queryItems: [URLQueryItem(name: "_since", value: "0")]))
        guard reply.status == 200, let list = try JSONValue(parsing: reply.body)["data"]?.arrayValue else {
            throw HarnessError("listing \(collection) with tombstones: HTTP \(reply.status)")
        }
        return Set(list.compactMap { record in
            guard let id = record["id"]?.stringValue, let stamp = record["last_modified"]?.intValue,
                  stamps.contains(stamp) else { return nil }
            return id
        })
    }

    /// Every record and tombstone on the server: `id` → its last change, as listed.
    func history() async throws -> [String: String] {
        let reply = try await send("GET", records.appending(queryItems: [URLQueryItem(name: "_since", value: "0")]))
        let list = (try? JSONValue(parsing: reply.body))?["data"]?.arrayValue ?? []
        var all: [String: String] = [:]
        for record in list { if let id = record["id"]?.stringValue { all[id] = record.serialized() } }
        return all
    }

    /// Every live record on the server, without `last_modified`.
    func all() async throws -> [String: JSONValue] {
        let reply = try await send("GET", records)
        guard reply.status == 200, let list = try JSONValue(parsing: reply.body)["data"]?.arrayValue else {
            throw HarnessError("listing \(collection): HTTP \(reply.status)")
        }
        var all: [String: JSONValue] = [:]
        for record in list {
            guard case .object(var fields) = record, let id = fields["id"]?.stringValue else { continue }
            fields["last_modified"] = nil
            all[id] = .object(fields)
        }
        return all
    }
}
