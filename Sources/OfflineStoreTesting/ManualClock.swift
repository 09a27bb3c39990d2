import OfflineStore

/// A clock that moves only when a test advances it; sleepers wake without real waiting.
///
/// ```swift
/// let clock = ManualClock()
/// let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
/// await clock.waitForSleepers()
/// clock.advance(by: .seconds(5))   // the sleeper resumes now
/// try await sleeper.value
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point on a manual clock: the time advanced since its start.
    public struct Instant: InstantProtocol, Sendable, Hashable {
        /// The time since the clock's start.
        public var offset: Duration

        /// Creates the instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Instant
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var cancelled: Set<UInt64> = []
        var watchers: [Watcher] = []

        /// Removes and returns the watchers satisfied by the current number of sleepers.
        mutating func satisfiedWatchers() -> [Watcher] {
            let ready = watchers.filter { $0.count <= sleepers.count }
            watchers.removeAll { $0.count <= sleepers.count }
            return ready
        }
    }

    private let state: Locked<State>

    /// Creates a clock standing at `now` (its start by default).
    public init(now: Instant = Instant(offset: .zero)) {
        state = Locked(State(now: now))
    }

    /// The current instant; changes only through ``advance(by:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: a manual clock has no resolution limit.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until ``advance(by:)`` reaches `deadline`; returns at once if it is already reached.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while sleeping.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Action { case resume, cancel, wait([Watcher]) }
                let action = state.withLock { s -> Action in
                    if s.cancelled.remove(id) != nil { return .cancel }
                    if deadline <= s.now { return .resume }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .wait(s.satisfiedWatchers())
                }
                switch action {
                case .resume: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                case .wait(let watchers): watchers.forEach { $0.continuation.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { s -> Sleeper? in
                guard let index = s.sleepers.firstIndex(where: { $0.id == id }) else {
                    s.cancelled.insert(id)
                    return nil
                }
                return s.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // A sleep that ended normally leaves no cancellation mark behind.
        state.withLock { _ = $0.cancelled.remove(id) }
    }

    /// Moves the clock forward and resumes, earliest deadline first, every sleeper whose deadline is reached.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock cannot go back")
        let due = state.withLock { s -> [Sleeper] in
            s.now = s.now.advanced(by: duration)
            let now = s.now
            let due = s.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            s.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Suspends until at least `count` tasks are sleeping on this clock, so a test can advance it safely.
    public func waitForSleepers(count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.sleepers.count >= count { return true }
                s.watchers.append(Watcher(count: count, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
