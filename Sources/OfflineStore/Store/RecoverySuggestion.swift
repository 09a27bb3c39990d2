/// The recovery suggestion of an ``OfflineStoreError``: what became of the data, then what
/// the user can do, in English sentences an app may show as they are.
///
/// A pure function of the code, the ``OfflineStoreError/DataFate`` the throwing path set and,
/// for a damaged store, how many edits it holds unsent: the fate alone says whether the
/// change is saved, so a suggestion never tells a user "kept" of an edit that was not
/// stored, nor "try again" of one that is queued. With an unknown fate it says nothing of
/// the data. Tested for every code, fate, write mode and update policy
/// (RecoverySuggestionTableTests).
enum RecoverySuggestion {
    typealias Code = OfflineStoreError.Code
    typealias Fate = OfflineStoreError.DataFate

    /// The suggestion: the fate's sentence (none when unknown), then the code's advice.
    static func text(for code: Code, fate: Fate, pendingEdits: Int?) -> String {
        [dataSentence(fate), advice(for: code, fate: fate, pendingEdits: pendingEdits)]
            .compactMap { $0 }.joined(separator: " ")
    }

    /// What became of the data, or nil when the throwing path could not tell.
    static func dataSentence(_ fate: Fate) -> String? {
        switch fate.base {
        case .unknown: nil
        case .notStored: "Your change was not saved."
        case .stored: "Your change is saved on this device."
        case .storedAndQueued: "Your change is saved on this device and will be sent to the server later."
        case .storedAndHeld: "Your change is saved on this device, but the server has not taken it."
        case .storedAndSent: "Your change is saved on this device and on the server."
        case .unchanged: "Nothing on this device was changed."
        case .queuedEditsKept: "Changes not sent yet stay on this device for the next sync."
        }
    }

    /// Whether the change is on this device (so advice never asks to make it again).
    private static func isStored(_ fate: Fate) -> Bool {
        [.stored, .storedAndQueued, .storedAndHeld, .storedAndSent].contains(fate.base)
    }

    /// What the user can do about it, given what became of the data; nil only where the
    /// fate's sentence already says everything (an edit queued to be sent by itself).
    static func advice(for code: Code, fate: Fate, pendingEdits: Int?) -> String? {
        let stored = isStored(fate)
        switch code.base {
        case .notADatabase:
            return "Check that the app opens its own data file, with the right key if it is encrypted. "
                + localDataWarning(pendingEdits)
        case .corrupted:
            return localDataWarning(pendingEdits)
        case .locked:
            return stored ? nil : "Another part of the app, or another app, is saving data; try again in a moment."
        case .schemaTooNew, .modelTooNew:
            return "Update the app to its latest version."
        case .storage:
            return stored ? "Check that the device has free space." : "Check that the device has free space, then try again."
        case .closed:
            return stored ? "Open the app's data again." : "Open the app's data again, then try again."
        case .invalidID:
            return "Use another identifier."
        case .invalidJSON:
            return "Correct the item's content."
        case .invalidFieldPath:
            return "Search by a field the items store."
        case .schemaViolation:
            return "Give the item the fields it needs."
        case .unknownCollection:
            return "Set up this kind of item before using it."
        case .collectionExists:
            return "Use this kind of item as it is set up, or give the new one another name."
        case .notFound:
            return "Refresh the view: the item may have been deleted."
        case .alreadyExists:
            return "Change the existing item instead, or use another identifier."
        case .notConflicted:
            return "Refresh the view: there is nothing to resolve."
        case .invalidOperation:
            return "Refresh the view and choose another action."
        case .offline:
            switch fate.base {
            case .storedAndQueued, .storedAndHeld, .stored: return nil
            case .storedAndSent: return "What is left to upload is sent once the device is online."
            default: return "Try again when the device is online."
            }
        case .unauthorized:
            return "Sign in again."
        case .forbidden:
            return fate == .storedAndHeld ? "Ask the owner for access, then retry it." : "Ask the owner for access."
        case .conflict:
            switch fate.base {
            case .notStored: return "Open the item again and make the change on its current version."
            case .storedAndQueued: return nil
            default: return "Choose which version to keep."
            }
        case .server:
            return stored ? nil : "Try again later."
        case .timeout:
            switch fate.base {
            case .notStored: return "The server may have applied it before the connection broke: refresh, and make it again if it is missing."
            case .storedAndQueued: return "If the server had already applied it, it recognises it when it is sent again."
            default: return stored ? nil : "Try again later."
            }
        case .badResponse:
            return stored ? "If this happens again, report it." : "Try again later; if this happens again, report it."
        case .failedEntry:
            switch fate.base {
            case .notStored: return "Correct the change, then make it again."
            case .storedAndSent: return "Its attached file was refused: retry the upload, or attach another file."
            default: return "Correct the change and retry it, or discard it."
            }
        case .configuration:
            return "The app is not set up for this; its developer needs to fix the setup."
        case .storeFull:
            return stored ? "Remove items you no longer need." : "Remove items you no longer need, then try again."
        case .serverLostData:
            return "The data on this device is kept: it can be sent to the server again, or read again once the server is restored."
        case .cancelled:
            switch fate.base {
            case .notStored: return "Make the change again."
            case .storedAndQueued: return nil
            default: return "Sync again to send and receive the rest."
            }
        case .undecodable:
            return "Update the app to its latest version; the item is kept as it is."
        case .pendingEdits:
            return "Sync before signing out, or choose to keep or discard the changes."
        }
    }

    /// What removing a store's local data costs: the unsent edits (counted when the store
    /// could count them), and whatever is kept only on this device.
    static func localDataWarning(_ pendingEdits: Int?) -> String {
        let synced = "Synced data is read again from the server."
        switch pendingEdits {
        case nil:
            return "Removing the app's local data also deletes every change still waiting to be sent to the server and anything "
                + "kept only on this device: keep a copy of the data file first. " + synced
        case 0?:
            return "No change waits to be sent, but removing the app's local data deletes anything kept only on "
                + "this device: keep a copy of the data file first. " + synced
        case let count?:
            let changes = count == 1 ? "1 change" : "\(count) changes"
            return "The data file holds \(changes) still waiting to be sent to the server: removing the app's local data deletes "
                + "\(count == 1 ? "it" : "them") and anything kept only on this device, so keep a copy of the file first. " + synced
        }
    }
}
