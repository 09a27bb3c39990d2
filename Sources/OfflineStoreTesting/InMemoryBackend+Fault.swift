import OfflineStore

extension InMemoryBackend {
    /// A backend call that a fault can hit.
    public enum Call: String, Sendable, Hashable, CaseIterable {
        /// ``InMemoryBackend/push(_:collection:)``.
        case push
        /// ``InMemoryBackend/pull(_:delivering:)`` (and fetch and search).
        case pull
        /// ``InMemoryBackend/ping()``.
        case ping
    }

    /// A failure the in-memory server plays on a coming call, as a flaky network or server would.
    ///
    /// Inject with ``InMemoryBackend/inject(_:times:)``; limit to some calls with ``only(_:)``:
    /// ```swift
    /// backend.inject(.status(503, retryAfter: .seconds(2)).only(.push), times: 2)
    /// ```
    public struct Fault: Sendable, Hashable, CustomStringConvertible {
        enum Kind: Sendable, Hashable {
            case status(Int, retryAfter: Duration?, body: String?)
            case offline
            case timeout
            case appliedButResponseLost
            case delay(Duration)
            case rejectOperation(id: String, status: Int, body: String?)
            case conflictOnce(id: String)
        }

        let kind: Kind
        /// The calls this fault can hit.
        public private(set) var calls: Set<Call>

        private init(_ kind: Kind) {
            self.kind = kind
            self.calls = Self.possibleCalls(of: kind)
        }

        /// The server answers with this status: 5xx throws `server` (with `retryAfter`), 401/403 throw
        /// `unauthorized`, another 4xx rejects every operation of a push (throws `server` for pull and ping).
        public static func status(_ status: Int, retryAfter: Duration? = nil, body: String? = nil) -> Fault {
            precondition((400...599).contains(status), "an injected status must be 4xx or 5xx")
            return Fault(.status(status, retryAfter: retryAfter, body: body))
        }

        /// The server cannot be reached: the call throws `offline` and nothing reaches the server.
        public static let offline = Fault(.offline)

        /// The server does not answer in time: the call throws `timeout` and nothing is applied.
        public static let timeout = Fault(.timeout)

        /// The push is applied, then its answer is lost: the call throws `timeout` (push only).
        public static let appliedButResponseLost = Fault(.appliedButResponseLost)

        /// The server answers only after `duration` on the backend's clock, then handles the call normally.
        public static func delay(_ duration: Duration) -> Fault { Fault(.delay(duration)) }

        /// The operation with this id, in the next push that carries it, is rejected (push only).
        public static func rejectOperation(id: String, status: Int, body: String? = nil) -> Fault {
            precondition((400...499).contains(status), "a rejected operation needs a 4xx status")
            return Fault(.rejectOperation(id: id, status: status, body: body))
        }

        /// Another client rewrites the record (new version, same data) just before the next push
        /// that carries this id lands, so a versioned update or delete of it conflicts (push only).
        public static func conflictOnce(id: String) -> Fault { Fault(.conflictOnce(id: id)) }

        /// This fault limited to the given calls (among those it can hit).
        public func only(_ calls: Call...) -> Fault {
            var copy = self
            copy.calls = Self.possibleCalls(of: kind).intersection(calls)
            precondition(!copy.calls.isEmpty, "\(self) cannot hit \(calls.map(\.rawValue))")
            return copy
        }

        /// The id of the operation this fault targets; nil for faults of a whole call.
        var operationID: String? {
            switch kind {
            case .rejectOperation(let id, _, _), .conflictOnce(let id): id
            default: nil
            }
        }

        /// A short description, e.g. `status(503)`.
        public var description: String {
            switch kind {
            case .status(let status, _, _): "status(\(status))"
            case .offline: "offline"
            case .timeout: "timeout"
            case .appliedButResponseLost: "appliedButResponseLost"
            case .delay(let duration): "delay(\(duration))"
            case .rejectOperation(let id, let status, _): "rejectOperation(\(id), \(status))"
            case .conflictOnce(let id): "conflictOnce(\(id))"
            }
        }

        private static func possibleCalls(of kind: Kind) -> Set<Call> {
            switch kind {
            case .status, .offline, .timeout, .delay: Set(Call.allCases)
            case .appliedButResponseLost, .rejectOperation, .conflictOnce: [.push]
            }
        }
    }
}
