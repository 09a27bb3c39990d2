import Foundation

/// What `error.localizedDescription` shows: one sentence per code, in English, that an app
/// can put in an alert; the case's details in ``failureReason``; what to do, where there is
/// something to do, in ``recoverySuggestion``.
extension OfflineStoreError: LocalizedError {
    /// A sentence for the user, the same for every error of a code (e.g. "The server could
    /// not be reached."); `localizedDescription` returns it.
    public var errorDescription: String? { code.sentence }

    /// What happened in this case: ``message`` as a sentence, with the HTTP status when there is one.
    public var failureReason: String? {
        guard let first = message.first else { return nil }
        var reason = first.uppercased() + message.dropFirst()
        if let status { reason += " (HTTP \(status))" }
        if !reason.hasSuffix(".") { reason += "." }
        return reason
    }

    /// What the user or the app can do about it, when there is something to do.
    public var recoverySuggestion: String? { code.suggestion }
}

extension OfflineStoreError.Code {
    /// Every code the library defines, in declaration order (for tests and docs).
    static var all: [OfflineStoreError.Code] { Base.allCases.map { OfflineStoreError.Code(base: $0) } }

    /// The sentence `localizedDescription` shows for this code.
    var sentence: String {
        switch base {
        case .notADatabase: "The data file is not a database of this app."
        case .corrupted: "The data file is damaged."
        case .locked: "The data is busy in another part of the app."
        case .schemaTooNew: "The data was saved by a newer version of the app."
        case .storage: "The data could not be read or saved."
        case .closed: "The app's data is closed and cannot be used."
        case .invalidID: "The item's identifier is not valid."
        case .invalidJSON: "The item's content is not valid."
        case .invalidFieldPath: "The search refers to a field that cannot be used."
        case .schemaViolation: "The item does not have the fields it needs."
        case .unknownCollection: "This kind of item is not known to the app."
        case .collectionExists: "This kind of item is already set up differently."
        case .notFound: "The item could not be found."
        case .alreadyExists: "An item with this identifier already exists."
        case .notConflicted: "The item has no conflicting changes to resolve."
        case .invalidOperation: "This action is not possible for the item right now."
        case .offline: "The server could not be reached."
        case .unauthorized: "The server refused access."
        case .forbidden: "You do not have permission to change or see these items."
        case .conflict: "The item was changed on the server in the meantime."
        case .server: "The server could not handle the request."
        case .timeout: "The server did not answer in time."
        case .badResponse: "The server's answer could not be understood."
        case .failedEntry: "The server rejected a change."
        case .configuration: "The app is not set up to sync."
        case .storeFull: "There is no room left for more data."
        case .serverLostData: "The server no longer has data this device synced."
        case .cancelled: "Syncing was stopped."
        case .undecodable: "An item could not be read by this version of the app."
        case .modelTooNew: "This data was converted by a newer version of the app."
        case .pendingEdits: "Some of your changes have not been sent yet."
        }
    }

    /// What to do about it, when there is something to do.
    var suggestion: String? {
        switch base {
        case .locked, .offline, .timeout:
            "Try again in a moment; your changes are kept on this device."
        case .server:
            "Try again later; your changes are kept on this device."
        case .schemaTooNew, .modelTooNew:
            "Update the app to its latest version."
        case .storage:
            "Check that the device has free space, then try again."
        case .unauthorized:
            "Sign in again, or ask for access."
        case .forbidden:
            "Ask the owner for access; your changes are kept on this device."
        case .conflict:
            "Choose which version to keep."
        case .failedEntry:
            "Correct the change, or discard it."
        case .storeFull:
            "Remove items you no longer need, then try again."
        case .corrupted, .notADatabase:
            "Remove the app's local data; it is read again from the server."
        case .serverLostData:
            "Your data is kept on this device; it can be sent to the server again."
        case .cancelled:
            "Sync again to send and receive the rest; your changes are kept on this device."
        case .undecodable:
            "Update the app to its latest version; the item is kept as it is."
        case .pendingEdits:
            "Sync before signing out, or choose to keep or discard the changes."
        case .closed, .invalidID, .invalidJSON, .invalidFieldPath, .schemaViolation, .unknownCollection,
             .collectionExists, .notFound, .alreadyExists, .notConflicted, .invalidOperation, .badResponse,
             .configuration:
            nil
        }
    }
}
