import Foundation
import OfflineStore

/// One network step of the workload: `flush`, `refresh` or `sync`, announced as
///
///     step <k> <op> start
///     step <k> <op> ok <pushed> <pulled>
///     step <k> <op> error <code>
///
/// A step that stops early (server error, timeout, fault) is expected under fault
/// injection: the error is reported and the workload goes on; nothing it did is lost.
enum SyncStep: String, CaseIterable {
    case flush, refresh, sync

    /// Runs the step on `store` and reports how it ended.
    func run(_ k: Int, on store: ObjectStore) async {
        say("step \(k) \(rawValue) start")
        do {
            let report: SyncReport
            switch self {
            case .flush: report = try await store.flush()
            case .refresh: report = try await store.refresh()
            case .sync: report = try await store.sync()
            }
            say("step \(k) \(rawValue) ok \(report.pushed) \(report.pulled)")
        } catch let error as OfflineStoreError {
            say("step \(k) \(rawValue) error \(error.code)")
        } catch {
            fail("\(rawValue) threw an untyped error: \(error)")
        }
    }
}

/// Where and how the workload syncs: `--server URL --bucket NAME [--timeout SECONDS] [--backend kinto|rest|odata]`.
struct ServerOptions {
    /// The server's kind, as `--backend` names it.
    enum Kind: String { case kinto, rest, odata }

    var url: URL
    var bucket: String
    var timeout: Duration
    var kind: Kind

    /// Reads the options after the positional arguments; nil when there is no `--server`.
    init?(_ arguments: ArraySlice<String>) {
        var options: [String: String] = [:]
        var rest = arguments
        while let name = rest.popFirst() {
            guard name.hasPrefix("--"), let value = rest.popFirst() else { fail("bad option \(name)", status: 64) }
            options[String(name.dropFirst(2))] = value
        }
        guard let server = options["server"] else { return nil }
        guard let url = URL(string: server), let bucket = options["bucket"] else {
            fail("--server needs a URL and --bucket a name", status: 64)
        }
        self.url = url
        self.bucket = bucket
        timeout = .seconds(Double(options["timeout"] ?? "10") ?? 10)
        guard let kind = Kind(rawValue: options["backend"] ?? "kinto") else { fail("--backend is kinto, rest or odata", status: 64) }
        self.kind = kind
    }

    /// How the items are stored on this server.
    var layout: WorkloadLayout {
        switch kind {
        case .kinto: .kinto
        case .rest: .named(scope: bucket, .rails)
        case .odata: .named(scope: bucket, .odata)
        }
    }

    /// The backend (Kinto, REST on the Rails test app's customers, or OData on the fixture's
    /// Customers as its writer) that logs its wire traffic.
    func backend() -> any Backend {
        let transport = WireLog(base: URLSessionTransport())
        switch kind {
        case .kinto:
            return KintoBackend(configuration: .init(serverURL: url, bucket: bucket,
                                                     auth: .basic(user: "alice", password: "secret"), timeout: timeout),
                                transport: transport)
        case .rest:
            return RESTBackend(configuration: .init(baseURL: url, resources: ["customers": RESTResource(path: "/customers", wrapKey: "customer")],
                                                    timeout: timeout),
                               transport: transport)
        case .odata:
            let basic = Data("writer:writer".utf8).base64EncodedString()
            return ODataBackend(configuration: .init(serviceRoot: url, headers: ["Authorization": "Basic \(basic)"], timeout: timeout),
                                transport: transport)
        }
    }
}
