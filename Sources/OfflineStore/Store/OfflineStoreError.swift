import Foundation

/// The one error type the library throws: a stable code to switch on, a message that says
/// what was wrong, and what the server or SQLite said underneath.
///
/// ```swift
/// do {
///     try await store.sync()
/// } catch let error as OfflineStoreError {
///     switch error.code {
///     case .offline, .timeout: break                       // try again later; queued edits stay queued
///     case .unauthorized: showLogin()
///     default: showAlert(error.localizedDescription, detail: error.recoverySuggestion)
///     }
///     if let done = error.report { print(done.pushed, "pushed before it stopped") }
/// }
/// ```
///
/// Compare codes with the static members (`error.code == .offline`) rather than an
/// exhaustive `switch` without `default`: codes can be added without breaking callers.
/// It is a `LocalizedError`: `localizedDescription` is a sentence an app can show,
/// ``failureReason`` says what happened in this case, ``recoverySuggestion`` what became of
/// the data (``dataFate``, set by the path that threw) and what to do.
/// Every code, when it happens and what an app does about it: Docs/Errors.md.
///
/// `flush()`, `refresh()` and `sync()` throw it too; when such a run stopped after it had
/// started, ``report`` holds what it did before it stopped (everything done is persisted).
public struct OfflineStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public let code: Code
    /// What was wrong, in words, for logs and developers; never contains credentials or
    /// bound values of SQL. ``failureReason`` is this message as a sentence.
    public let message: String
    /// The HTTP status, for errors that come from a server answer.
    public let status: Int?
    /// The server's answer body, for errors that come from a server answer.
    public let body: String?
    /// A lower-level error's description (e.g. SQLite's result code and message).
    public let underlying: String?
    /// The lower-level error itself, when there is one: GRDB's `DatabaseError` (SQLite's
    /// result code, message and SQL) for storage codes, ``TransportError`` for `offline` and
    /// `timeout`. Not part of equality.
    public let underlyingError: (any Error)?
    /// How long the server asked us to wait before trying again (Retry-After / Backoff).
    public let retryAfter: Duration?
    /// For a `flush()`, `refresh()` or `sync()` that stopped early: what it did before it
    /// stopped (everything done is persisted). Nil for every other error.
    public let report: SyncReport?
    /// What became of the app's data: the edit not stored, stored and queued, held for the
    /// app, or sent; what a stopped sync or a read left. Set by the code path that threw;
    /// ``DataFate/unknown`` when it could not tell. ``recoverySuggestion`` is derived from it.
    public let dataFate: DataFate
    /// How many edits wait unsent in the store (queued, failed or in conflict), for errors
    /// where that decides what the user may do, and only where the store could count them:
    /// a `corrupted` store whose queue is still readable. Nil otherwise.
    public let pendingEdits: Int?

    /// Creates an error.
    public init(_ code: Code, _ message: String, status: Int? = nil, body: String? = nil,
                underlying: String? = nil, underlyingError: (any Error)? = nil, retryAfter: Duration? = nil,
                dataFate: DataFate = .unknown) {
        self.code = code
        self.message = message
        self.status = status
        self.body = body
        self.underlying = underlying
        self.underlyingError = underlyingError
        self.retryAfter = retryAfter
        self.report = nil
        self.dataFate = dataFate
        self.pendingEdits = nil
    }

    /// A copy of `error` with another report, fate or count.
    init(_ error: OfflineStoreError, report: SyncReport?? = nil, dataFate: DataFate, pendingEdits: Int?) {
        code = error.code
        message = error.message
        status = error.status
        body = error.body
        underlying = error.underlying
        underlyingError = error.underlyingError
        retryAfter = error.retryAfter
        self.report = report ?? error.report
        self.dataFate = dataFate
        self.pendingEdits = pendingEdits
    }

    /// The same error, as the stop of a sync run that did `report` before it stopped: its
    /// unsent edits stay queued.
    func stoppingRun(after report: SyncReport) -> OfflineStoreError {
        OfflineStoreError(stoppingRunKeepsQueue, report: .some(report), dataFate: stoppingRunKeepsQueue.dataFate,
                          pendingEdits: pendingEdits)
    }

    /// The same error, as what stopped a flush, refresh or sync: the edits it did not send
    /// stay queued, unless the path that threw said more.
    var stoppingRunKeepsQueue: OfflineStoreError {
        dataFate == .unknown || dataFate == .unchanged ? with(.queuedEditsKept) : self
    }

    /// "code: message (HTTP status)"; "sync stopped early: …" for a run that stopped. The
    /// status is left out when the message already names it.
    public var description: String {
        let s = "\(code): \(message)" + statusSuffix
        return report == nil ? s : "sync stopped early: " + s
    }

    /// " (HTTP 404)", or nothing when there is no status or the message already says it.
    var statusSuffix: String {
        guard let status, !message.contains("HTTP \(status)") else { return "" }
        return " (HTTP \(status))"
    }

    /// Equal when everything but ``underlyingError`` (which need not be comparable) is equal.
    public static func == (lhs: OfflineStoreError, rhs: OfflineStoreError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.underlying == rhs.underlying && lhs.retryAfter == rhs.retryAfter && lhs.report == rhs.report
            && lhs.dataFate == rhs.dataFate && lhs.pendingEdits == rhs.pendingEdits
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(status)
        hasher.combine(body)
        hasher.combine(underlying)
        hasher.combine(retryAfter)
        hasher.combine(report)
        hasher.combine(dataFate)
        hasher.combine(pendingEdits)
    }
}

/// Earlier name of a stopped sync run's error.
///
/// `flush()`, `refresh()` and `sync()` now throw ``OfflineStoreError``, with what the run did
/// before it stopped in ``OfflineStoreError/report``; its code is the reason it stopped.
@available(*, deprecated, renamed: "OfflineStoreError",
           message: "flush, refresh and sync throw OfflineStoreError; its `report` holds what was done")
public typealias SyncInterrupted = OfflineStoreError
