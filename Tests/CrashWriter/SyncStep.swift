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

/// Where and how the workload syncs: `--server URL --bucket NAME [--timeout SECONDS] [--backend kinto|rest]`.
struct ServerOptions {
    var url: URL
    var bucket: String
    var timeout: Duration
    var isREST: Bool

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
        guard ["kinto", "rest"].contains(options["backend"] ?? "kinto") else { fail("--backend is kinto or rest", status: 64) }
        isREST = options["backend"] == "rest"
    }

    /// How the items are stored on this server.
    var layout: WorkloadLayout { isREST ? .rest(scope: bucket) : .kinto }

    /// The backend (Kinto, or REST on the Rails test app's customers) that logs its wire traffic.
    func backend() -> any Backend {
        if isREST {
            return RESTBackend(configuration: .init(baseURL: url, resources: ["customers": RESTResource(path: "/customers", wrapKey: "customer")],
                                                    timeout: timeout),
                               transport: WireLog(base: URLSessionTransport()))
        }
        return KintoBackend(configuration: .init(serverURL: url, bucket: bucket,
                                          auth: .basic(user: "alice", password: "secret"), timeout: timeout),
                     transport: WireLog(base: URLSessionTransport()))
    }
}
