import Foundation

/// One pending operation of the durable queue: what to send for which object.
public struct QueueEntry: Sendable, Hashable {
    /// The operation to send.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// POST / PUT with "must not exist" precondition.
        case create
        /// PUT or PATCH with the base version as precondition.
        case update
        /// DELETE with the base version as precondition.
        case delete
    }

    /// The kind of a failed entry.
    public enum Failure: String, Sendable, Hashable, Codable, CaseIterable {
        /// The server refused the edit itself (4xx: invalid data, a missing parent, …): fix it, then retry.
        case rejected
        /// The server refused the user permission to make it (403: the collection or record is
        /// not writable for this user, e.g. access was withdrawn). The local copy stays what the
        /// app sees; ``ObjectStore/retry(_:id:)`` once access is granted again sends it.
        case forbidden
    }

    /// Where the entry stands.
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        /// Waiting to be sent.
        case pending
        /// Sent; the answer has not been applied yet.
        case inFlight = "in-flight"
        /// The server rejected it; kept until the app retries, rolls back or discards.
        case failed
    }

    /// The position in the store-wide FIFO order.
    public let seq: Int64
    /// The collection of the object.
    public let collection: String
    /// The object id.
    public let objectID: String
    /// The operation.
    public let kind: Kind
    /// The server version the edit started from, sent as precondition (nil for creates).
    public let baseVersion: String?
    /// A key the server can use to recognise a retried request.
    public let idempotencyKey: String
    /// How many times the entry was sent.
    public let attempts: Int
    /// The last error met when sending, in words.
    public let lastError: String?
    /// The HTTP status of the last rejection, if any.
    public let status: Int?
    /// The server's body of the last rejection, if any.
    public let responseBody: String?
    /// Where the entry stands.
    public let state: State
    /// Why a failed entry failed (nil unless ``state`` is ``State/failed``), from its status
    /// (`FailureRule`): ``Failure/forbidden`` for a 403, else ``Failure/rejected``.
    public var failure: Failure? { state == .failed ? FailureRule.failure(status: status) : nil }
    /// When the entry was first queued.
    public let createdAt: Date
    /// The earliest time the entry may be sent again after a retryable failure.
    public let notBefore: Date?
    /// The object revision the entry last carried to the server (nil until sent).
    var sentRev: Int64? = nil
    /// The payload the entry was last sent with, as JSON text: a resend sends it again as it
    /// was (nil until sent, and after the app retries a rejected entry).
    var sentData: String? = nil
}
