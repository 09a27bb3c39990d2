import Foundation

/// Runs blocking work (reading a pipe, waiting for a process) on a thread of its own.
///
/// On Linux, Swift concurrency's threads are libdispatch's, as many as there are cores; a
/// test that blocks one of them can starve the dispatch source with which Foundation reaps
/// child processes, and every `waitUntilExit()` then hangs.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
