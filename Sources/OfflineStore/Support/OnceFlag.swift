/// A flag that is taken once: ``take()`` is true the first time only, from any thread.
package final class OnceFlag: Sendable {
    private let used = Locked(false)

    /// Creates a flag not taken yet.
    package init() {}

    /// True the first time only.
    package func take() -> Bool { used.withLock { u in defer { u = true }; return !u } }
}
