import Foundation
import OfflineStore
import OfflineStorePlatform
import OfflineStoreTestPlatform
import Testing

/// The real Kinto the test suite runs against, and scripted doubles for what it cannot do.
enum KintoServer {
    /// Why the Kinto tests cannot run.
    struct NotConfigured: Error, CustomStringConvertible {
        var description: String { "KINTO_URL is not set: run the suite through scripts/test, which starts Kinto" }
    }

    /// The base URL (`…/v1`) of the test's Kinto: `KINTO_URL`, or, when scripts/test started a
    /// second one (`KINTO_URL_2`), one of the two chosen by the running test, the same for every
    /// call of one test. One Kinto is one Python process, a core at most: the full pass kept it
    /// busy for most of its length (175 s of request time in a 150 s pass), and its queue made
    /// requests of other tests wait past their timeouts.
    ///
    /// - Throws: ``NotConfigured`` when it is unset or not a URL; tests never skip silently.
    static func url() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["KINTO_URL"], !text.isEmpty, let first = URL(string: text) else { throw NotConfigured() }
        guard let second = environment["KINTO_URL_2"].flatMap(URL.init(string:)), let test = Test.current else { return first }
        // FNV-1a of the test's id: stable across calls and runs (Swift's Hasher is seeded per process).
        let hash = String(describing: test.id).utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return hash % 2 == 0 ? first : second
    }

    /// The Kinto for the heavy reliability workloads (kill -9, fault proxy, concurrent
    /// writers): `KINTO_WORKLOAD_URL`, a second process `scripts/test` starts so they do not
    /// slow the rest of the suite's Kinto; `KINTO_URL` when it is unset.
    ///
    /// - Throws: ``NotConfigured`` when neither is set.
    static func workloadURL() throws -> URL {
        if let text = ProcessInfo.processInfo.environment["KINTO_WORKLOAD_URL"], !text.isEmpty, let url = URL(string: text) {
            return url
        }
        return try url()
    }

    /// A fresh name for a bucket or collection, e.g. `t3f9a…`, so tests can run in parallel.
    static func uniqueName(_ prefix: String = "t") -> String {
        prefix + String(UInt64.random(in: .min ... .max), radix: 16)
    }

    /// The one way tests build a Kinto backend: on the real Kinto (`KINTO_URL`) with a bucket
    /// of its own, as `alice`; ``backend(server:bucket:auth:timeout:pageSize:lookBack:shareBucketWithAuthenticatedUsers:countsRecords:now:transport:)``
    /// points it elsewhere (the workload Kinto, a proxy, a fake answering from memory).
    static func backend(bucket: String = uniqueName("b"), auth: KintoAuth = .basic(user: "alice", password: "secret"),
                        timeout: Duration = .seconds(20), pageSize: Int = 500, lookBack: Duration = .seconds(5),
                        shareBucketWithAuthenticatedUsers: Bool = false, countsRecords: Bool = false,
                        transport: (any HTTPTransport)? = nil) throws -> KintoBackend {
        backend(server: try url(), bucket: bucket, auth: auth, timeout: timeout, pageSize: pageSize, lookBack: lookBack,
                shareBucketWithAuthenticatedUsers: shareBucketWithAuthenticatedUsers, countsRecords: countsRecords,
                transport: transport)
    }

    /// A Kinto backend on `server`, with the same defaults as ``backend(bucket:auth:timeout:pageSize:lookBack:shareBucketWithAuthenticatedUsers:countsRecords:transport:)``.
    static func backend(server: URL, bucket: String = uniqueName("b"), auth: KintoAuth = .basic(user: "alice", password: "secret"),
                        timeout: Duration = .seconds(20), pageSize: Int = 500, lookBack: Duration = .seconds(5),
                        shareBucketWithAuthenticatedUsers: Bool = false, countsRecords: Bool = false,
                        now: @escaping @Sendable () -> Date = { Date() },
                        transport: (any HTTPTransport)? = nil) -> KintoBackend {
        let configuration = KintoBackend.Configuration(
            serverURL: server, bucket: bucket, auth: auth, timeout: timeout, pageSize: pageSize, lookBack: lookBack,
            shareBucketWithAuthenticatedUsers: shareBucketWithAuthenticatedUsers, countsRecords: countsRecords, now: now)
        guard let transport else { return KintoBackend(configuration: configuration) }
        return KintoBackend(configuration: configuration, transport: transport)
    }

    /// An address where no Kinto runs, for backends whose `transport` answers instead.
    static let fakeAddress = URL(string: "http://127.0.0.1:9/v1")!

    /// A TCP port on 127.0.0.1 that nothing listens on (bound, then closed).
    static func closedPort() -> Int {
        do { return try LoopbackSocket.freePort() } catch { preconditionFailure("no port on 127.0.0.1: \(error)") }
    }

    /// Runs `body` with a port on 127.0.0.1 that accepts connections but never answers.
    static func withSilentServer<T>(_ body: (Int) async throws -> T) async rethrows -> T {
        let listener: (socket: LoopbackSocket, port: Int)
        do { listener = try LoopbackSocket.listen(port: 0, backlog: 16) } catch { preconditionFailure("listen() failed: \(error)") }
        defer { listener.socket.close() }
        return try await body(listener.port)
    }
}

/// A transport that answers from a script and records what it was sent.
final class ScriptedTransport: HTTPTransport {
    private let state: Locked<(answers: [HTTPResponse], sent: [HTTPRequest])>

    /// Creates a transport that gives these answers in order (then 500s).
    init(_ answers: [HTTPResponse]) { state = Locked((answers, [])) }

    /// The requests sent so far.
    var sent: [HTTPRequest] { state.withLock { $0.sent } }

    /// Queues more answers.
    func enqueue(_ answers: HTTPResponse...) { state.withLock { $0.answers += answers } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        state.withLock { state in
            state.sent.append(request)
            return state.answers.isEmpty ? HTTPResponse(status: 500) : state.answers.removeFirst()
        }
    }

    /// A JSON answer.
    static func json(_ status: Int, _ body: JSONValue, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a },
                     body: Data(body.serialized().utf8))
    }

    /// A backend on this transport at a fake address, with an injected clock.
    func backend(clock: TestClock = TestClock(), countsRecords: Bool = false) -> KintoBackend {
        KintoServer.backend(server: KintoServer.fakeAddress, bucket: "b", timeout: .seconds(30), pageSize: 10_000,
                            countsRecords: countsRecords, now: clock.now, transport: self)
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let date = Locked(Date(timeIntervalSince1970: 1_800_000_000))

    /// The current instant, as the backend's `now`.
    var now: @Sendable () -> Date { { self.date.withLock { $0 } } }

    /// Moves the clock forward.
    func advance(seconds: Double) { date.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
