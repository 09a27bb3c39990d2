import Foundation
@testable import OfflineStore
import Testing

/// A request asked ahead of its use starts on the caller's thread (``Task/startedHere(_:)``).
@Suite("Tasks started on the caller's thread", .timeLimit(.minutes(1)))
struct StartedHereTaskTests {
    /// Whether `Task.startedHere` starts on the caller's thread here (`Task.immediate`: Linux,
    /// and Apple systems from version 26), as the helper decides it.
    static var startsOnCallersThread: Bool {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) { return true }
        return false
    }

    /// The thread this runs on (`Thread.current` is not read in an async context).
    static func currentThread() -> ObjectIdentifier { ObjectIdentifier(Thread.current) }

    @Test(.enabled(if: StartedHereTaskTests.startsOnCallersThread,
                   "Task.immediate: Linux, Apple systems from 26; before those, an ordinary Task"))
    func theOperationRunsOnTheCallersThreadBeforeTheCallReturns() {
        let ranOn = Locked<ObjectIdentifier?>(nil)
        let caller = Self.currentThread()
        let task = Task<Void, any Error>.startedHere { ranOn.withLock { $0 = Self.currentThread() } }
        // An ordinary Task would not have run yet, or would have run on another thread.
        #expect(ranOn.withLock { $0 } == caller)
        task.cancel()
    }

    @Test(.enabled(if: StartedHereTaskTests.startsOnCallersThread,
                   "Task.immediate: Linux, Apple systems from 26; before those, an ordinary Task"))
    func whatFollowsItsFirstSuspensionRunsLaterAndItsValueArrives() async throws {
        let (numbers, send) = AsyncStream<Int>.makeStream()
        let steps = Locked<[String]>([])
        let task = Task<Int, any Error>.startedHere {
            steps.withLock { $0.append("started") }
            for await number in numbers {
                steps.withLock { $0.append("resumed") }
                return number
            }
            return -1
        }
        #expect(steps.withLock { $0 } == ["started"])
        send.yield(7)
        #expect(try await task.value == 7)
        #expect(steps.withLock { $0 } == ["started", "resumed"])
    }

    @Test func onEverySystemItsValueArrives() async throws {
        let task = Task<String, any Error>.startedHere {
            await Task.yield()
            return "answered"
        }
        #expect(try await task.value == "answered")
    }
}
