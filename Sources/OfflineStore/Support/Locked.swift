import Foundation

/// A value that many tasks and threads share, read and changed only while a lock is held.
///
/// It gives what the standard library's `Mutex` gives (one holder at a time, the value
/// handed to the body `inout`, the same `withLock` shape) without its availability floor
/// (`Synchronization` needs iOS 18 / macOS 15), so the package runs on older systems.
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// ```
///
/// The lock is not reentrant: calling `withLock` on the same instance from inside its own
/// body deadlocks, exactly as `Mutex` does. Bodies stay short and never `await`.
///
/// Visible to every target of the package (`package` access), never to apps.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is read and written only inside `withLock`, while `lock`
    // is held, so no two threads ever touch it at once; the values that go in and out cross
    // isolation as `sending`, as they do through `Mutex`, so none stays shared unguarded.
    private let lock = NSLock()
    /// The value, behind a pointer allocated once: a `var` property of a class is checked for
    /// exclusivity at run time on every access (`swift_beginAccess`), which the lock makes
    /// redundant here; the store's every edit takes a few of these locks.
    private let value: UnsafeMutablePointer<Value>

    /// Creates the lock around its first value.
    package init(_ initialValue: sending Value) {
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    ///
    /// - Throws: what `body` throws; the lock is released either way.
    package func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value.pointee)
    }
}
