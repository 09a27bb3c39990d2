import OfflineStore

/// An answer the page shows as a message: an HTTP status and what was wrong, in words.
public struct InspectorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status (400 bad input, 403 read-only, 404 unknown, 409 state, 5xx store or server).
    public var status: Int
    /// The message shown on the page.
    public var message: String

    /// An error with its status.
    public init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// Any error as a status and one line: the library's codes map to 400/404/409/5xx.
    public static func describe(_ error: any Error) -> InspectorError {
        switch error {
        case let error as InspectorError: return error
        case let error as OfflineStoreError:
            // A flush, refresh or sync that stopped early carries the report of what it did.
            let prefix = error.report != nil ? "stopped early: " : ""
            return InspectorError(status(for: error.code), prefix + line(for: error))
        default: return InspectorError(500, String(describing: error))
        }
    }

    /// "message (HTTP 422): server body", the body shortened.
    public static func line(for error: OfflineStoreError) -> String {
        var text = error.message
        if let status = error.status { text += " (HTTP \(status))" }
        if let body = error.body, !body.isEmpty {
            text += ": " + (body.count > 500 ? String(body.prefix(500)) + "…" : body)
        }
        return text
    }

    private static func status(for code: OfflineStoreError.Code) -> Int {
        switch code {
        case .notFound, .unknownCollection: 404
        case .notConflicted, .invalidOperation, .alreadyExists, .conflict, .failedEntry: 409
        case .invalidID, .invalidJSON, .invalidFieldPath, .schemaViolation: 400
        case .offline, .timeout, .unauthorized, .forbidden, .server, .badResponse: 502
        default: 500
        }
    }
}
