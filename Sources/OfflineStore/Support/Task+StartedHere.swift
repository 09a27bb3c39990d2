extension Task where Failure == any Error {
    /// A task that starts on the caller's thread and runs there until it first suspends:
    /// `Task.immediate` where the platform has it, an ordinary `Task` elsewhere.
    ///
    /// For a request asked ahead of its use (the next page of a pull, the next batch of a
    /// flush), so that it is on its way before the caller goes on. An ordinary `Task` first
    /// waits for a free thread of the cooperative pool, which has one thread per core and may be
    /// busy with the caller's own work and a database write; the request would then leave only
    /// when one of them ends (Docs/Performance.md, "Where a refresh's time goes").
    ///
    /// The operation is not isolated to an actor: it runs where the caller runs, and what it
    /// does before its first suspension delays the caller by as much.
    static func startedHere(_ operation: sending @escaping @Sendable () async throws -> Success) -> Task {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return Task.immediate(operation: operation)
        }
        return Task(operation: operation)
    }
}
