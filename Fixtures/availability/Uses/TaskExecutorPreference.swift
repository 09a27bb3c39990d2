// `Task(executorPreference:)` and `TaskExecutor` are macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2.

// expect: TaskExecutor needs macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2
func start(on executor: any TaskExecutor) {
    // expect: Task.init(name:executorPreference:priority:operation:) needs macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2
    Task(executorPreference: executor) {}
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func startAvailable(on executor: any TaskExecutor) {
    Task(executorPreference: executor) {}
}
