import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import OfflineStore
import Testing

/// The one-shot signal the flush waits on before it writes answers (``RequestWritten``).
@Suite("Request written signal", .timeLimit(.minutes(1)))
struct RequestWrittenTests {
    @Test func aWaitAfterTheSignalReturnsAtOnce() async {
        let written = RequestWritten()
        #expect(!written.hasFired)
        written.fire()
        written.fire()
        await written.wait()
        #expect(written.hasFired)
    }

    @Test func everyWaiterResumesWhenItFires() async {
        let written = RequestWritten()
        let (waiting, announce) = AsyncStream<Void>.makeStream()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    announce.yield()
                    await written.wait()
                }
            }
            // Fired once every waiter has at least started, some possibly before they wait.
            var started = 0
            for await _ in waiting {
                started += 1
                if started == 3 { break }
            }
            written.fire()
        }
        #expect(written.hasFired)
    }

    @Test func theSignalReachesTheTaskThatSendsOnlyInsideItsScope() async {
        let written = RequestWritten()
        #expect(RequestWritten.current == nil)
        let seen = await RequestWritten.$current.withValue(written) { await Task { RequestWritten.current }.value }
        #expect(seen === written)
        #expect(RequestWritten.current == nil)
    }
}

extension RequestWrittenTests {
    @Test func untilAwaitedReturnsOnceATaskWaits() async {
        let written = RequestWritten()
        async let watched: Void = written.untilAwaited()
        let waiter = Task { await written.wait() }
        await watched
        #expect(!written.hasFired)
        written.fire()
        await waiter.value
        #expect(written.hasFired)
    }

    @Test func untilAwaitedReturnsAtOnceOnceFired() async {
        let written = RequestWritten()
        written.fire()
        await written.untilAwaited()
        #expect(written.hasFired)
    }
}

extension RequestWrittenTests {
    /// The session's delegate fires a task's signal when the task reports sent body bytes,
    /// not before: driven directly, on a task that is never started.
    @Test func theSessionDelegateFiresTheSignalOnSentBodyBytes() {
        let delegate = SessionDelegate()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URL(string: "http://127.0.0.1:9/")!)
        let written = RequestWritten()
        delegate.register(StreamFeed(running: RunningTask(), delegate: delegate, written: written), for: task.taskIdentifier)
        #expect(!written.hasFired)
        delegate.urlSession(session, task: task, didSendBodyData: 10, totalBytesSent: 10, totalBytesExpectedToSend: 20)
        #expect(written.hasFired)
    }
}
