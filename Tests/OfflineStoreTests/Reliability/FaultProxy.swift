import Foundation
import OfflineStore

/// `scripts/faultproxy.py` running between a store and the real Kinto, on 127.0.0.1.
///
/// Started with a seed, a fault rate and the kinds of fault to inject; it is ready once it
/// printed `listening <port>` (read from its pipe, never waited for by time). Every request
/// gets a line in its log: `<n> <fault|pass> <METHOD> <path>`.
final class FaultProxy: Sendable {
    /// The proxy's base URL, `http://127.0.0.1:<port>/v1`.
    let url: URL
    private let control: URL
    private let child: Spawned
    private let logPath: String

    /// Starts the proxy in front of `upstream` (a `…/v1` URL), off the concurrency pool.
    ///
    /// - Throws: when python3 or the script is missing or the proxy does not start.
    /// With `holdMatching`, the first request whose body or path holds that text is kept and its
    /// connection broken at once (never answered); ``release()`` delivers it.
    static func start(upstream: URL, seed: UInt64, rate: Double, faults: [String], hold: Double,
                      logPath: String, holdMatching: String? = nil) async throws -> FaultProxy {
        try await offPool {
            try FaultProxy(upstream: upstream, seed: seed, rate: rate, faults: faults, hold: hold, logPath: logPath,
                           holdMatching: holdMatching)
        }
    }

    private init(upstream: URL, seed: UInt64, rate: Double, faults: [String], hold: Double, logPath: String,
                 holdMatching: String?) throws {
        let script = ChildProcess.packageRoot.appendingPathComponent("scripts/faultproxy.py")
        var origin = URLComponents(url: upstream, resolvingAgainstBaseURL: false)!
        origin.path = ""
        child = try Spawned(["python3", script.path, "--upstream", origin.string!, "--seed", String(seed % 1_000_000_007),
                             "--rate", String(rate), "--faults", faults.joined(separator: ","), "--hold", String(hold),
                             "--log", logPath] + (holdMatching.map { ["--hold-matching", $0] } ?? []),
                            stderrPath: logPath + ".stderr")
        self.logPath = logPath
        let port = try child.listeningPort("faultproxy")
        url = URL(string: "http://127.0.0.1:\(port)\(upstream.path)")!
        control = URL(string: "http://127.0.0.1:\(port)/__faultproxy__/")!
    }

    /// Whether the proxy holds a request (`holdMatching`).
    func isHolding() async throws -> Bool {
        let answer = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: control.appendingPathComponent("held")))
        return String(decoding: answer.body, as: UTF8.self).contains("true")
    }

    /// Forwards the held request to the upstream now (its client saw the connection break); returns
    /// the upstream's HTTP status once it answered.
    ///
    /// - Throws: when nothing is held or the proxy does not answer.
    func release() async throws -> Int {
        let answer = try await URLSessionTransport().send(HTTPRequest(method: "POST", url: control.appendingPathComponent("release")))
        let text = String(decoding: answer.body, as: UTF8.self)
        guard answer.status == 200,
              let status = text.split(whereSeparator: { !$0.isNumber }).first.flatMap({ Int($0) }) else {
            throw HarnessError("faultproxy held nothing to release (\(text))")
        }
        return status
    }

    /// The log: one `(fault, method, path)` per request, `fault` being "pass" when none.
    func requests() -> [(fault: String, method: String, path: String)] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            return f.count == 4 ? (String(f[1]), String(f[2]), String(f[3])) : nil
        }
    }

    /// Stops the proxy and waits for it to exit, off the concurrency pool.
    func stop() async {
        let child = self.child
        child.kill()  // nothing to flush: the log is line-buffered
        _ = try? await offPool { child.wait() }
    }
}
