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

    /// Writer `kind` does `rounds` writes on ids of its own; returns how many requests the
    /// server accepted (2xx), how many it refused with a 409 (concurrent transactions), and
    /// the ids whose last write Kinto stored with a client timestamp already more than
    /// `lookBack` behind the collection's: no incremental pull can see those (Kinto keeps a
    /// past client `last_modified` as it is, Docs/Sync.md), so they are outside what a
    /// refresh promises. Only a collider write can make one, and only when the server took
    /// longer than `lookBack` between its `GET` and its `PUT` (a loaded machine).
    func run(kind: Int, rounds: Int, seed: UInt64,
             lookBack: Duration = .seconds(5)) async throws -> (accepted: Int, conflicts: Int, hidden: Set<String>) {
        var random = ObjectStoreCrashTests.SeededGenerator(seed: seed)
        var accepted = 0, conflicts = 0
        var hidden = Set<String>()
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
                if let stamp = Int64(etag) { data["last_modified"] = .int(stamp) }
                let put = try await send("PUT", records.appendingPathComponent(id), ["data": .object(data)])
                count(put.status)
                guard (200..<300).contains(put.status) else { continue }
                // Where did it land? Below the collection's timestamp by more than the look-back: hidden.
                let stored = (try? JSONValue(parsing: put.body))?["data"]?["last_modified"]?.intValue
                let after = try await send("GET", records.appending(queryItems: [URLQueryItem(name: "_limit", value: "1")]))
                let now = after.header("ETag").flatMap { Int64($0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))) }
                let lag = Int64(lookBack.components.seconds * 1000)
                if let stored, let now, now - stored > lag { hidden.insert(id) } else { hidden.remove(id) }
            }
        }
        return (accepted, conflicts, hidden)
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
