import Foundation

extension KintoBackend {
    /// A GET whose 2xx body is read as it arrives: the answer's head (a ``KintoReply``
    /// without body) and the body's stream. Any other answer is read whole (error answers
    /// are small) and comes without a stream. A 401 gets one refresh of the credentials and
    /// one more try, as ``send(_:_:headers:body:parsingBody:what:)`` does.
    ///
    /// - Throws: `offline`, `timeout`, `CancellationError`, as ``send(_:_:headers:body:parsingBody:what:)``.
    func streamGET(_ url: URL, headers extra: [(String, String)], what: String) async throws -> (KintoReply, HTTPBodyStream?) {
        var answer = try await exchange("GET", url, headers: extra, body: nil, what: what) { [transport] in
            try await transport.stream($0)
        }
        if answer.status == 401, try await refreshCredentials() {
            answer = try await exchange("GET", url, headers: extra, body: nil, what: what) { [transport] in
                try await transport.stream($0)
            }
        }
        noteBackoff(status: answer.status, headers: answer.headers)
        guard (200..<300).contains(answer.status) else {
            var body = answer.body.makeAsyncIterator()
            var data = Data()
            while let chunk = try await nextChunk(&body, what: what) { data.append(chunk) }
            return (KintoReply(HTTPResponse(status: answer.status, headers: answer.headers, body: data)), nil)
        }
        return (KintoReply(HTTPResponse(status: answer.status, headers: answer.headers), parsingBody: false), answer.body)
    }

    /// The next chunk of a body, a broken connection as ``OfflineStoreError`` (`timeout`: the answer did not arrive whole).
    func nextChunk(_ body: inout HTTPBodyStream.AsyncIterator, what: String) async throws -> Data? {
        do {
            return try await body.next()
        } catch let error as TransportError {
            throw OfflineStoreError(transport: error, while: what)
        }
    }

    /// Reads a streamed list page record by record (`KintoPageReader`), handing each
    /// group of records read to `deliver` as the bytes arrive.
    ///
    /// - Returns: the lowest and the highest `last_modified` read.
    /// - Throws: ``OfflineStoreError/Code/badResponse`` naming the byte where the page stopped
    ///   being a Kinto list answer; a broken connection as `timeout` or `offline`; whatever
    ///   `deliver` throws.
    func readPage(_ body: HTTPBodyStream, reply: KintoReply, what: String,
                  deliver: ([RemoteChange]) async throws -> Void) async throws -> (lowest: Int64?, highest: Int64?) {
        var reader = KintoPageReader()
        var chunks = body.makeAsyncIterator()
        var changes: [RemoteChange] = []
        var lowest: Int64?, highest: Int64?
        func unreadable(_ error: JSONError) -> OfflineStoreError {
            OfflineStoreError(.badResponse, "\(what): the page is not a Kinto list answer (\(error))", status: reply.status)
        }
        while let chunk = try await nextChunk(&chunks, what: what) {
            do { try reader.read(chunk, into: &changes) } catch let error as JSONError { throw unreadable(error) }
            guard !changes.isEmpty else { continue }
            for change in changes {
                guard let version = Int64(change.version) else { continue }
                highest = max(highest ?? version, version)
                lowest = min(lowest ?? version, version)
            }
            try await deliver(changes)
            changes.removeAll(keepingCapacity: true)
        }
        do { try reader.finish() } catch let error as JSONError { throw unreadable(error) }
        return (lowest, highest)
    }

    /// The request for `reply`'s `Next-Page` (made to start at its boundary,
    /// ``KintoPageBoundary/overlapping(_:)``), sent now; nil when there is none, it leaves the
    /// collection's records or the server asked to back off (the next pull then asks it itself,
    /// and says why it cannot). A page that turns out to list only its boundary's timestamp
    /// follows Kinto's own `Next-Page` instead, and this request is dropped.
    func aheadOf(_ reply: KintoReply, recordsURL: URL, what: String) -> KintoPageAhead? {
        guard let link = reply.header("Next-Page"), let named = URL(string: link), paths.isSameOrigin(named),
              named.path == recordsURL.path, (try? checkBackoff()) != nil else { return nil }
        let url = KintoPageBoundary.overlapping(named) ?? named
        return KintoPageAhead(url: url, answer: .startedHere { [self] in try await streamGET(url, headers: [], what: what) })
    }
}

/// A page asked before its pull came for it: the `Next-Page` request of a page still being
/// read, carried by that page's continuation. The continuation dropped unused (the refresh
/// stopped) cancels the request and frees what of its body had arrived. Its answer is read
/// once: a continuation used again asks the page anew (``claim()``).
final class KintoPageAhead: Sendable {
    /// The page's URL, as the continuation's token names it.
    let url: URL
    private let task: Task<(KintoReply, HTTPBodyStream?), any Error>
    private let unclaimed = OnceFlag()

    init(url: URL, answer task: Task<(KintoReply, HTTPBodyStream?), any Error>) {
        self.url = url
        self.task = task
    }

    deinit { task.cancel() }

    /// True the first time only: the answer's body can be read once, so a continuation
    /// used a second time must send its own request.
    func claim() -> Bool { unclaimed.take() }

    /// The answer's head and body stream, as ``KintoBackend/streamGET(_:headers:what:)`` gives them.
    func answer() async throws -> (KintoReply, HTTPBodyStream?) {
        try await withTaskCancellationHandler { try await task.value } onCancel: { [task] in task.cancel() }
    }
}
