import Foundation
import OfflineStore

/// Wraps a real transport: counts record writes and injects faults on them, so the
/// scenario suite can break the wire to a real Kinto in controlled ways.
final class WireFaultTransport: HTTPTransport {
    enum Fault: Sendable {
        /// Answer this status without forwarding.
        case status(Int)
        /// Forward (the server applies it), then lose the answer.
        case lostResponse
        /// Run the hook, then forward.
        case hook(@Sendable () async -> Void)
    }

    private struct State {
        var writes = 0
        var faults: [Fault] = []
        var pullHooks: [@Sendable () async -> Void] = []
        var pullRequests = 0
        var unreachable = false
        var requestLines: [String] = []
    }

    private let base: any HTTPTransport
    private let state = Locked(State())
    private let isWrite: (@Sendable (HTTPRequest) -> Bool)?

    /// Wraps `base`; `isWrite` says which requests are record writes (default: Kinto's).
    init(base: any HTTPTransport, isWrite: (@Sendable (HTTPRequest) -> Bool)? = nil) {
        self.base = base
        self.isWrite = isWrite
    }

    /// "METHOD path?query" of every request sent, in order.
    var requestLines: [String] { state.withLock { $0.requestLines } }

    var writeCount: Int { state.withLock { $0.writes } }
    var pullRequestCount: Int { state.withLock { $0.pullRequests } }

    func inject(_ fault: Fault) { state.withLock { $0.faults.append(fault) } }
    /// While true, every request fails as if the server could not be reached.
    func setUnreachable(_ unreachable: Bool) { state.withLock { $0.unreachable = unreachable } }
    /// Runs the hook before the next page request of a records list (after the first page).
    func beforeNextPage(_ hook: @escaping @Sendable () async -> Void) { state.withLock { $0.pullHooks.append(hook) } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let line = request.method + " " + request.url.path + (request.url.query.map { "?" + $0 } ?? "")
        if state.withLock({ $0.requestLines.append(line); return $0.unreachable }) {
            throw TransportError(.cannotConnect, "injected: connection refused")
        }
        let path = request.url.path
        if isWrite == nil, request.method == "GET", path.hasSuffix("/records") {
            let hook = state.withLock { s -> (@Sendable () async -> Void)? in
                s.pullRequests += 1
                // Only page requests that follow a Next-Page link carry a _token.
                guard request.url.query?.contains("_token=") == true, !s.pullHooks.isEmpty else { return nil }
                return s.pullHooks.removeFirst()
            }
            await hook?()
            return try await base.send(request)
        }
        let isRecordWrite = isWrite?(request)
            ?? ((request.method != "GET" && path.contains("/records")) || path.hasSuffix("/batch"))
        guard isRecordWrite else { return try await base.send(request) }
        let fault = state.withLock { s -> Fault? in
            s.writes += WireFaultTransport.writes(in: request)
            return s.faults.isEmpty ? nil : s.faults.removeFirst()
        }
        switch fault {
        case .status(let code)?:
            let body = #"{"code":\#(code),"errno":999,"error":"Injected","message":"injected failure"}"#
            return HTTPResponse(status: code, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        case .lostResponse?:
            _ = try await base.send(request)
            throw TransportError(.timedOut, "injected: the answer was lost after the server applied the request")
        case .hook(let hook)?:
            await hook()
            return try await base.send(request)
        case nil:
            return try await base.send(request)
        }
    }

    /// How many record writes a request carries (a batch counts its sub-requests).
    private static func writes(in request: HTTPRequest) -> Int {
        guard request.url.path.hasSuffix("/batch") else { return 1 }
        guard let body = request.body, let json = try? JSONValue(parsing: body),
              let requests = json["requests"]?.arrayValue else { return 0 }
        return requests.filter { $0["method"]?.stringValue?.uppercased() != "GET" }.count
    }
}
