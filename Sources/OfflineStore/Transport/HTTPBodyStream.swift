import Foundation

/// An HTTP answer whose body is still arriving: the status and headers, and the body as
/// a stream of chunks (``HTTPTransport/stream(_:)``).
public struct HTTPStreamedResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields with lowercased names.
    public var headers: [String: String]
    /// The body, chunk by chunk, read once.
    public var body: HTTPBodyStream

    /// Creates a streamed answer; header names are lowercased.
    public init(status: Int, headers: [String: String] = [:], body: HTTPBodyStream) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }

    /// The value of a header, compared without case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Reads the rest of the body into memory (for small answers: errors, 304s).
    ///
    /// - Throws: ``TransportError`` when the connection broke, `CancellationError`.
    public func collected() async throws -> HTTPResponse {
        var data = Data()
        for try await chunk in body { data.append(chunk) }
        return HTTPResponse(status: status, headers: headers, body: data)
    }
}

/// The body of an ``HTTPStreamedResponse``: its chunks in order, as they arrive.
///
/// Iterate it once, from one task. The transport keeps only a bounded number of bytes
/// ahead of the reader where it can pause the connection (``URLSessionTransport`` on
/// Apple platforms); once the stream and every iterator made from it are gone before the
/// end, the request is cancelled. A second task waiting on the body at once gets a
/// ``TransportError``.
public struct HTTPBodyStream: AsyncSequence, Sendable {
    /// A chunk of the body.
    public typealias Element = Data
    /// A broken connection (``TransportError``) or `CancellationError`.
    public typealias Failure = any Error

    private let source: Source

    private enum Source: Sendable {
        case whole(Data)
        case live(BodyBuffer, Abandonment)
    }

    /// A body already in memory, delivered as one chunk (none when empty).
    public init(_ data: Data) { source = .whole(data) }

    /// A body fed by a transport through `buffer`.
    init(_ buffer: BodyBuffer) { source = .live(buffer, Abandonment(buffer)) }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .whole(let data): return AsyncIterator(pending: data.isEmpty ? nil : data, live: nil)
        case .live(let buffer, let abandonment): return AsyncIterator(pending: nil, live: (buffer, abandonment))
        }
    }

    /// Reads the chunks of an ``HTTPBodyStream``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate var pending: Data?
        fileprivate var live: (BodyBuffer, Abandonment)?

        /// The next chunk; nil at the end of the body.
        ///
        /// - Throws: ``TransportError`` when the connection broke, `CancellationError`.
        public mutating func next() async throws -> Data? {
            if let data = pending {
                pending = nil
                return data
            }
            guard let (buffer, _) = live else { return nil }
            return try await buffer.next()
        }
    }
}

/// Cancels the request of a body nobody reads any more (the last copy of the stream went).
final class Abandonment: Sendable {
    private let buffer: BodyBuffer
    init(_ buffer: BodyBuffer) { self.buffer = buffer }
    deinit { buffer.abandon() }
}

/// The bytes between a transport and the reader of a body: a queue of chunks with a high
/// and a low mark. Above the high mark `pause` is called (the transport stops reading the
/// connection); once the reader has taken the queue down to the low mark, `resume`.
/// A transport that cannot pause passes no-ops and the queue is bounded by the answer's size.
final class BodyBuffer: Sendable {
    /// Bytes queued before the transport is asked to pause.
    static let highMark = 256 * 1024
    /// Bytes left in the queue when the transport is asked to go on.
    static let lowMark = 64 * 1024

    private struct State {
        var chunks: [Data] = []
        var first = 0
        var bytes = 0
        var paused = false
        var end: Result<Void, any Error>?
        var waiter: CheckedContinuation<Data?, any Error>?
    }

    private let state = Locked(State())
    private let pause: @Sendable () -> Void
    private let resume: @Sendable () -> Void
    private let cancel: @Sendable () -> Void

    init(pause: @escaping @Sendable () -> Void, resume: @escaping @Sendable () -> Void,
         cancel: @escaping @Sendable () -> Void) {
        self.pause = pause
        self.resume = resume
        self.cancel = cancel
    }

    /// Queues a chunk from the transport (or hands it to a waiting reader).
    func append(_ data: Data) {
        guard !data.isEmpty else { return }
        let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.chunks.append(data)
            state.bytes += data.count
            if state.bytes >= Self.highMark, !state.paused {
                state.paused = true
                // Under the lock, so that the reader's resume cannot overtake this pause and
                // leave the transport paused for good (neither calls back into the buffer).
                pause()
            }
            return nil
        }
        waiter?.resume(returning: data)
    }

    /// The transport's end of the body: nil when complete, else why it broke.
    func finish(_ error: (any Error)?) {
        let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = error.map { .failure($0) } ?? .success(())
            defer { state.waiter = nil }
            return state.chunks.count > state.first ? nil : state.waiter
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// Whether a reader waits for the next chunk (the tests' view).
    var hasWaitingReader: Bool { state.withLock { $0.waiter != nil } }

    /// The reader gave up: the request is cancelled unless the body already ended.
    func abandon() {
        let ended = state.withLock { $0.end != nil }
        if !ended { cancel() }
    }

    /// The next chunk, waiting for it; nil at the end.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let ready = state.withLock { state -> Result<Data?, any Error>? in
                    if state.first < state.chunks.count {
                        let data = state.chunks[state.first]
                        state.first += 1
                        state.bytes -= data.count
                        if state.first == state.chunks.count || state.first > 64 {
                            state.chunks.removeFirst(state.first)
                            state.first = 0
                        }
                        if state.paused, state.bytes <= Self.lowMark {
                            state.paused = false
                            resume()   // under the lock, in order with `append`'s pause
                        }
                        return .success(data)
                    }
                    switch state.end {
                    case .success?: return .success(nil)
                    case .failure(let error)?: return .failure(error)
                    case nil:
                        // One reader at a time: a second would take the first one's place and
                        // leave it waiting for good.
                        guard state.waiter == nil else {
                            return .failure(TransportError(.other, "the body is read by two tasks at once: read it from one"))
                        }
                        state.waiter = continuation
                        return nil
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            cancel()
        }
    }
}
