import Foundation

/// What `error.localizedDescription` shows: one sentence per code, in English, that an app
/// can put in an alert; the case's details in ``failureReason``; what became of the data and
/// what to do in ``recoverySuggestion``.
extension OfflineStoreError: LocalizedError {
    /// A sentence for the user, the same for every error of a code (e.g. "The server could
    /// not be reached."); `localizedDescription` returns it.
    public var errorDescription: String? { code.sentence }

    /// What happened in this case: ``message`` as a sentence, with the HTTP status when there
    /// is one and the message does not already name it.
    public var failureReason: String? {
        guard let first = message.first else { return nil }
        var reason = first.uppercased() + message.dropFirst() + statusSuffix
        if !reason.hasSuffix(".") { reason += "." }
        return reason
    }

    /// What became of the data, then what the user can do: derived from the code and
    /// ``dataFate`` (``RecoverySuggestion``), so it says "saved" only of an edit that was.
    /// Never nil.
    public var recoverySuggestion: String? {
        RecoverySuggestion.text(for: code, fate: dataFate, pendingEdits: pendingEdits)
    }
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
}
