import Foundation
import OfflineStore

/// A scenario server on the real Kinto started by scripts/test: a fresh bucket per
/// scenario; "another client" speaks plain HTTP to it.
struct KintoHarness: SyncHarness {
    let kinto: KintoBackend
    let transport: WireFaultTransport
    let base: URL
    let bucket: String
    let http = URLSessionTransport()
    static let auth = "Basic " + Data("alice:secret".utf8).base64EncodedString()

    var backend: any Backend { kinto }

    init(pageSize: Int) throws {
        base = try KintoServer.url()
        bucket = "s" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        transport = WireFaultTransport(base: URLSessionTransport())
        kinto = KintoServer.backend(server: base, bucket: bucket, timeout: .seconds(30), pageSize: pageSize,
                                        transport: transport)
    }

    private func url(_ collection: String, _ id: String? = nil) -> URL {
        var u = base.appendingPathComponent("buckets/\(bucket)/collections/\(collection)/records")
        if let id { u.appendPathComponent(id) }
        return u
    }

    private func send(_ method: String, _ url: URL, body: JSONValue? = nil) async throws -> HTTPResponse {
        var headers = [("Authorization", KintoHarness.auth)]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return try await http.send(HTTPRequest(method: method, url: url, headers: headers, body: body.map { Data($0.serialized().utf8) }))
    }

    private static func strip(_ record: JSONValue) -> JSONValue {
        guard case .object(var o) = record else { return record }
        o["last_modified"] = nil
        return .object(o)
    }

    func serverPut(_ collection: String, _ id: String, _ record: JSONValue) async throws {
        try await kinto.prepare(collection: collection)
        let r = try await send("PUT", url(collection, id), body: ["data": record.withID(id)])
        guard (200..<300).contains(r.status) else { throw HarnessError("PUT \(id): HTTP \(r.status)") }
    }

    func serverDelete(_ collection: String, _ id: String) async throws {
        let r = try await send("DELETE", url(collection, id))
        guard (200..<300).contains(r.status) else { throw HarnessError("DELETE \(id): HTTP \(r.status)") }
    }

    func serverGet(_ collection: String, _ id: String) async throws -> JSONValue? {
        let r = try await send("GET", url(collection, id))
        if r.status == 404 || r.status == 403 { return nil }
        guard r.status == 200, let data = try JSONValue(parsing: r.body)["data"] else { throw HarnessError("GET \(id): HTTP \(r.status)") }
        return KintoHarness.strip(data)
    }

    func serverAll(_ collection: String) async throws -> [String: JSONValue] {
        let r = try await send("GET", url(collection))
        if r.status == 404 || r.status == 403 { return [:] }
        guard r.status == 200, let list = try JSONValue(parsing: r.body)["data"]?.arrayValue else {
            throw HarnessError("list: HTTP \(r.status)")
        }
        var all: [String: JSONValue] = [:]
        for record in list { if let id = record["id"]?.stringValue { all[id] = KintoHarness.strip(record) } }
        return all
    }

    var writeCount: Int { transport.writeCount }
    func failNextPush(status: Int) { transport.inject(.status(status)) }
    func loseNextPushResponse() { transport.inject(.lostResponse) }
    func beforeNextPush(_ hook: @escaping @Sendable () async -> Void) { transport.inject(.hook(hook)) }
    func beforeSecondPage(_ hook: @escaping @Sendable () async -> Void) { transport.beforeNextPage(hook) }
    func setUnreachable(_ unreachable: Bool) { transport.setUnreachable(unreachable) }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
