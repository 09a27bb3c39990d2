// A task executor like the simulator's. The conformance itself compiles at the floor (the
// compiler lets a type conform to a newer protocol); its members mention the newer API.

final class Executor: TaskExecutor, @unchecked Sendable {
    // expect: ExecutorJob needs macOS 14, iOS 17, tvOS 17, watchOS 10
    func enqueue(_ job: consuming ExecutorJob) {
        // expect: ExecutorJob.runSynchronously(on:) needs macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2
        // expect: TaskExecutor.asUnownedTaskExecutor() needs macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class AvailableExecutor: TaskExecutor, @unchecked Sendable {
    func enqueue(_ job: consuming ExecutorJob) {
        job.runSynchronously(on: asUnownedTaskExecutor())
    }
}
