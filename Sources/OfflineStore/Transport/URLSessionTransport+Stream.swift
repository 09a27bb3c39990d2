import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// Sends the request with a data task fed through the session's data delegate
    /// (`urlSession(_:dataTask:didReceive:)`) and returns once the head arrived; the body
    /// follows as ``HTTPStreamedResponse/body``, chunk by chunk.
    ///
    /// Backpressure: on Apple platforms the task is suspended while more than
    /// `BodyBuffer.highMark` bytes wait for the reader (a suspended task produces no network
    /// traffic, per `URLSessionTask.suspend()`'s documentation) and resumed at the low mark. On
    /// Linux, swift-corelibs-foundation has no way to pause a body: suspending a task mid-body
    /// removes its libcurl handle and delivers a chunk twice once resumed (measured,
    /// Docs/Performance.md), so the queue is bounded there only by the answer's size.
    ///
    /// A ``RequestWritten/current`` signal is fired when the request's body went out
    /// (`urlSession(_:task:didSendBodyData:…)`), or once the task started for a request without
    /// a body, and at the latest when the task ends.
    ///
    /// - Throws: ``TransportError`` when no answer arrived, `CancellationError` when cancelled.
    public func stream(_ request: HTTPRequest) async throws -> HTTPStreamedResponse {
        let urlRequest = urlRequest(for: request)
        let running = RunningTask()
        let delegate = self.delegate
        let session = self.session
        let written = RequestWritten.current
        let feed = StreamFeed(running: running, delegate: delegate, written: written)
        let head: Result<HTTPStreamedResponse, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                feed.onHead = { continuation.resume(returning: $0) }
                let task = session.dataTask(with: urlRequest)
                delegate.register(feed, for: task.taskIdentifier)
                running.start(task)
                if request.body?.isEmpty != false { written?.fire() }
            }
        } onCancel: {
            running.cancel()
        }
        if case .failure = head, running.wasCancelled { throw CancellationError() }
        return try head.get()
    }
}

/// One streamed data task as the session delegate sees it: delivers the head once (at the
/// first body bytes or at the end) and then feeds the body's ``BodyBuffer``.
final class StreamFeed: @unchecked Sendable {
    // Mutated only on the session's serial delegate queue (and `onHead` before the task starts).
    var onHead: ((Result<HTTPStreamedResponse, any Error>) -> Void)?
    let buffer: BodyBuffer
    private let running: RunningTask
    private let delegate: SessionDelegate
    /// Fired when the request's body went out, or when the task ended (``RequestWritten``).
    private let written: RequestWritten?

    init(running: RunningTask, delegate: SessionDelegate, written: RequestWritten? = nil) {
        self.running = running
        self.delegate = delegate
        self.written = written
        // Apple's Foundation pauses a suspended task; swift-corelibs-foundation (FoundationNetworking) cannot.
        #if canImport(FoundationNetworking)
        buffer = BodyBuffer(pause: {}, resume: {}, cancel: { running.cancel() })
        #else
        buffer = BodyBuffer(pause: { running.suspend() }, resume: { running.resume() }, cancel: { running.cancel() })
        #endif
    }

    /// Body bytes arrived.
    func received(_ data: Data, task: URLSessionDataTask) {
        deliverHead(task.response, error: nil)
        buffer.append(data)
    }

    /// Body bytes of the request went out.
    func sentBody() { written?.fire() }

    /// The task ended, with `error` when it broke.
    func completed(task: URLSessionTask, error: (any Error)?) {
        written?.fire()
        // An HTTP challenge's answer comes as a cancelled task (its head may have gone with
        // body bytes already): the answer, without the rest of its body.
        let answered = onHead != nil ? deliverHead(task.response, error: error) : running.challenged(delegate) != nil
        guard let error, !answered else { return buffer.finish(nil) }
        if running.wasCancelled { return buffer.finish(CancellationError()) }
        buffer.finish((error as? URLError).map(URLSessionTransport.transportError)
                      ?? TransportError(.other, String(describing: error)))
    }

    /// Delivers the head unless it went before; true when `error` ended the task and an
    /// answer went all the same (a cancelled HTTP challenge).
    @discardableResult
    private func deliverHead(_ response: URLResponse?, error: (any Error)?) -> Bool {
        guard let onHead else { return false }
        self.onHead = nil
        let result = URLSessionTransport.result(nil, response, error, challenged: running.challenged(delegate))
        onHead(result.map { HTTPStreamedResponse(status: $0.status, headers: $0.headers, body: HTTPBodyStream(buffer)) })
        if case .success = result { return error != nil }
        return false
    }
}
