import Foundation

/// The one error type the library throws: a stable code to switch on, a message that says
/// what was wrong, and what the server or SQLite said underneath.
///
/// ```swift
/// do {
///     try await store.sync()
/// } catch let error as OfflineStoreError {
///     switch error.code {
///     case .offline, .timeout: break                       // try again later; nothing is lost
///     case .unauthorized: showLogin()
///     default: showAlert(error.localizedDescription)       // a sentence for the user
///     }
///     if let done = error.report { print(done.pushed, "pushed before it stopped") }
/// }
/// ```
///
/// Compare codes with the static members (`error.code == .offline`) rather than an
/// exhaustive `switch` without `default`: codes can be added without breaking callers.
/// It is a `LocalizedError`: `localizedDescription` is a sentence an app can show,
/// ``failureReason`` says what happened in this case, ``recoverySuggestion`` what to do.
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

    /// Creates an error.
    public init(_ code: Code, _ message: String, status: Int? = nil, body: String? = nil,
                underlying: String? = nil, underlyingError: (any Error)? = nil, retryAfter: Duration? = nil) {
        self.init(code: code, message: message, status: status, body: body, underlying: underlying,
                  underlyingError: underlyingError, retryAfter: retryAfter, report: nil)
    }

    private init(code: Code, message: String, status: Int?, body: String?, underlying: String?,
                 underlyingError: (any Error)?, retryAfter: Duration?, report: SyncReport?) {
        self.code = code
        self.message = message
        self.status = status
        self.body = body
        self.underlying = underlying
        self.underlyingError = underlyingError
        self.retryAfter = retryAfter
        self.report = report
    }

    /// The same error, as the stop of a sync run that did `report` before it stopped.
    func stoppingRun(after report: SyncReport) -> OfflineStoreError {
        OfflineStoreError(code: code, message: message, status: status, body: body, underlying: underlying,
                          underlyingError: underlyingError, retryAfter: retryAfter, report: report)
    }

    /// "code: message (HTTP status)"; "sync stopped early: …" for a run that stopped.
    public var description: String {
        var s = "\(code): \(message)"
        if let status { s += " (HTTP \(status))" }
        return report == nil ? s : "sync stopped early: " + s
    }

    /// Equal when everything but ``underlyingError`` (which need not be comparable) is equal.
    public static func == (lhs: OfflineStoreError, rhs: OfflineStoreError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.underlying == rhs.underlying && lhs.retryAfter == rhs.retryAfter && lhs.report == rhs.report
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
    }
}

/// Earlier name of a stopped sync run's error.
///
/// `flush()`, `refresh()` and `sync()` now throw ``OfflineStoreError``, with what the run did
/// before it stopped in ``OfflineStoreError/report``; its code is the reason it stopped.
@available(*, deprecated, renamed: "OfflineStoreError",
           message: "flush, refresh and sync throw OfflineStoreError; its `report` holds what was done")
public typealias SyncInterrupted = OfflineStoreError
