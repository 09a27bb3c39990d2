import Foundation
import OfflineStore

/// What a client sends over the simulated network.
enum SimulatedRequest: Sendable {
    /// A batch of queued operations (Kinto's `/batch`).
    case push(collection: String, operations: [PushOperation])
    /// One page of the change feed: every change, a sync scope's live records (no
    /// tombstones, as Kinto's filters) or a few fields of every change.
    case pull(collection: String, since: String?, continuing: PullContinuation?, listing: FeedListing)
}

/// What the simulated server answers.
enum SimulatedAnswer: Sendable {
    /// One outcome per pushed operation.
    case pushed([PushOutcome])
    /// A page of changes.
    case page(PullPage)
    /// The whole request failed at the server.
    case failed(OfflineStoreError)
}

/// One request and its answer on their way through the simulated network.
final class SimulatedCall: @unchecked Sendable {
    // @unchecked: the mutable fields are only touched under the executor's lock.
    enum Leg: Equatable { case none, inTransit, delivered, dropped }

    let id: Int
    let incarnation: Int
    let client: Int
    let request: SimulatedRequest
    /// When the client sent it (simulated milliseconds).
    let sentAt: Int64
    var requestLeg: Leg = .inTransit
    /// How likely the scheduler delivers the request at a step, once it drew it (a quarter of
    /// requests crawl: a slow link, a proxy that retries), so some arrive long after; only the
    /// driving thread touches it.
    var deliveryWeight: Int?
    var answer: SimulatedAnswer?
    var answerLeg: Leg = .none
    /// The client task waiting for the answer; nil once it got one, gave up or was killed.
    var waiter: CheckedContinuation<SimulatedAnswer, any Error>?

    init(id: Int, incarnation: Int, client: Int, request: SimulatedRequest, sentAt: Int64,
         waiter: CheckedContinuation<SimulatedAnswer, any Error>) {
        self.id = id
        self.incarnation = incarnation
        self.client = client
        self.request = request
        self.sentAt = sentAt
        self.waiter = waiter
    }

    /// Whether nothing about this call can happen any more.
    var isOver: Bool { requestLeg != .inTransit && answerLeg != .inTransit && waiter == nil }
}

/// The simulated network: every call in flight, and which client processes live and run.
///
/// Everything here is read and written under the executor's lock: client tasks register
/// calls from whatever thread they run on, the driver decides what happens to them.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SimulatedNetwork: @unchecked Sendable {
    // @unchecked: all mutable state is guarded by `executor`'s lock.
    private struct Incarnation {
        let id: Int
        let client: Int
        var alive = true
        var running = false
    }

    let executor: SimulationExecutor
    private let clock: @Sendable () -> Int64
    private var calls: [SimulatedCall] = []
    private var incarnations: [Incarnation] = []
    private var nextCallID = 1

    init(executor: SimulationExecutor, clock: @escaping @Sendable () -> Int64) {
        self.executor = executor
        self.clock = clock
    }

    /// The error a killed process's pending calls end with (nobody sees it: the process is gone).
    static let killed = OfflineStoreError(.offline, "the simulated process was killed")

    // MARK: - Client side

    /// Sends `request` and waits for its answer; throws at once when the process was killed.
    func call(_ request: SimulatedRequest, incarnation: Int, client: Int) async throws -> SimulatedAnswer {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SimulatedAnswer, any Error>) in
            let accepted = executor.locked { () -> Bool in
                guard incarnations.contains(where: { $0.id == incarnation && $0.alive }) else { return false }
                calls.append(SimulatedCall(id: nextCallID, incarnation: incarnation, client: client, request: request,
                                           sentAt: clock(), waiter: continuation))
                nextCallID += 1
                executor.condition.signal()
                return true
            }
            if !accepted { continuation.resume(throwing: Self.killed) }
        }
    }

    // MARK: - Processes

    /// A new process of `client`.
    func open(incarnation: Int, client: Int) {
        executor.locked { incarnations.append(Incarnation(id: incarnation, client: client)) }
    }

    /// Marks an operation of the process as running or done.
    func setRunning(_ running: Bool, incarnation: Int) {
        executor.locked {
            guard let index = incarnations.firstIndex(where: { $0.id == incarnation }) else { return }
            incarnations[index].running = running
            executor.condition.signal()
        }
    }

    /// Whether the process was not killed.
    func isAlive(incarnation: Int) -> Bool {
        executor.locked { incarnations.first(where: { $0.id == incarnation })?.alive ?? false }
    }

    /// Whether the process runs an operation.
    func isRunning(incarnation: Int) -> Bool {
        executor.locked { incarnations.first(where: { $0.id == incarnation })?.running ?? false }
    }

    /// Kills the process: its waiting calls end with ``killed``; what it sent stays on the wire.
    func kill(incarnation: Int) {
        let waiters = executor.locked { () -> [CheckedContinuation<SimulatedAnswer, any Error>] in
            if let index = incarnations.firstIndex(where: { $0.id == incarnation }) { incarnations[index].alive = false }
            var waiters: [CheckedContinuation<SimulatedAnswer, any Error>] = []
            for call in calls where call.incarnation == incarnation {
                if let waiter = call.waiter { waiters.append(waiter) }
                call.waiter = nil
                if call.answerLeg == .inTransit { call.answerLeg = .dropped }
            }
            return waiters
        }
        for waiter in waiters { waiter.resume(throwing: Self.killed) }
    }

    /// True when every running operation waits for the network (asked under the lock).
    func everyRunningClientWaits() -> Bool {
        incarnations.allSatisfy { process in
            !process.running || calls.contains { $0.incarnation == process.id && $0.waiter != nil }
        }
    }

    // MARK: - Driver side

    /// How many calls clients made.
    var callCount: Int { executor.locked { nextCallID - 1 } }

    /// The calls that can still change, oldest first.
    func liveCalls() -> [SimulatedCall] {
        executor.locked {
            calls.removeAll { $0.isOver }
            return calls
        }
    }

    /// Hands the server's answer to the network (or drops it when nobody waits any more).
    func delivered(_ call: SimulatedCall, answer: SimulatedAnswer) {
        executor.locked {
            call.requestLeg = .delivered
            guard call.waiter != nil else { return }
            call.answer = answer
            call.answerLeg = .inTransit
        }
    }

    /// Loses the request on the way.
    func dropRequest(_ call: SimulatedCall) {
        executor.locked { call.requestLeg = .dropped }
    }

    /// Loses the answer on the way back.
    func dropAnswer(_ call: SimulatedCall) {
        executor.locked {
            call.answerLeg = .dropped
            call.answer = nil
        }
    }

    /// The answer reaches the waiting client.
    func deliverAnswer(_ call: SimulatedCall) {
        let handoff = executor.locked { () -> (CheckedContinuation<SimulatedAnswer, any Error>, SimulatedAnswer)? in
            guard let waiter = call.waiter, let answer = call.answer else { return nil }
            call.waiter = nil
            call.answerLeg = .delivered
            call.answer = nil
            return (waiter, answer)
        }
        handoff.map { $0.0.resume(returning: $0.1) }
    }

    /// The client gives up waiting; the request may still arrive later.
    func timeOut(_ call: SimulatedCall, error: OfflineStoreError) {
        let waiter = executor.locked { () -> CheckedContinuation<SimulatedAnswer, any Error>? in
            defer {
                call.waiter = nil
                if call.answerLeg == .inTransit { call.answerLeg = .dropped }
                call.answer = nil
            }
            return call.waiter
        }
        waiter?.resume(throwing: error)
    }

    /// A consistent look at a call's legs.
    func legs(of call: SimulatedCall) -> (request: SimulatedCall.Leg, answer: SimulatedCall.Leg, waiting: Bool) {
        executor.locked { (call.requestLeg, call.answerLeg, call.waiter != nil) }
    }
}
