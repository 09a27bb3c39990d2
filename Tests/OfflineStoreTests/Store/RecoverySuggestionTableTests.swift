import Testing
@testable import OfflineStore

/// The recovery suggestion follows what became of the data (``RecoverySuggestion``): for
/// every code, in every write mode under both update policies, at every place an edit call
/// can stop (Docs/Policies.md, "Write modes"), it says "saved" only of an edit that is, and
/// asks to try again only when nothing is queued.
@Suite("Recovery suggestions: code × write mode × update policy")
struct RecoverySuggestionTableTests {
    typealias Fate = OfflineStoreError.DataFate

    static let modes: [WriteMode] = [.immediate, .awaitingServer, .deferred]
    static let policies: [UpdatePolicy] = [.queueIfOffline, .updateIfOnline]

    /// The places an edit call can stop on its route, with what then became of the edit.
    static func stops(on route: WriteRoute, policy: UpdatePolicy) -> [(place: String, fate: Fate)] {
        // A refusal (offline, a failed ping), a check, a busy or full store: nothing written.
        var stops: [(String, Fate)] = [("before storing", .notStored)]
        guard route == .commitThenAwaitServer else { return stops }  // nothing after the commit reaches the call
        for answer in AwaitedEditFate.Answer.allCases {
            for undone in policy == .updateIfOnline ? [true, false] : [false] {
                stops.append(("\(answer), undone: \(undone)", AwaitedEditFate.decide(answer, policy: policy, undone: undone)))
            }
        }
        return stops
    }

    /// What the rows of the table must say, by fate.
    static func check(_ text: String, fate: Fate, row: String) {
        #expect(text.first?.isUppercase == true && text.hasSuffix("."), "a sentence: \(row): \(text)")
        #expect(!text.contains("your changes are kept"), "the sentence that was wrong for unsaved edits: \(row)")
        switch fate {
        case .notStored:
            #expect(text.hasPrefix("Your change was not saved."), "\(row): \(text)")
            for claim in ["saved on this device", "will be sent", "change is kept", "changes are kept", "queued"] {
                #expect(!text.contains(claim), "\(row) claims '\(claim)': \(text)")
            }
        case .storedAndQueued:
            #expect(text.hasPrefix("Your change is saved on this device and will be sent"), "\(row): \(text)")
            #expect(!Self.asksToRedo(text) && !text.contains("not saved"), "\(row) asks to redo a queued edit: \(text)")
        case .storedAndHeld:
            #expect(text.hasPrefix("Your change is saved on this device, but the server has not taken it."), "\(row): \(text)")
            #expect(!text.contains("will be sent") && !Self.asksToRedo(text), "\(row): \(text)")
        case .storedAndSent:
            #expect(text.hasPrefix("Your change is saved on this device and on the server."), "\(row): \(text)")
            #expect(!Self.asksToRedo(text), "\(row): \(text)")
        default:
            Issue.record("an edit call ended with \(fate): \(row)")
        }
    }

    /// Whether a suggestion asks to make a change again, which is wrong for one that is stored.
    static func asksToRedo(_ text: String) -> Bool {
        ["try again", "make it again", "make the change again"].contains { text.lowercased().contains($0) }
    }

    @Test func everyCodeInEveryWriteModeUnderEveryPolicy() {
        var rows = 0
        for mode in Self.modes {
            for policy in Self.policies {
                let route = WriteRoute.decide(mode: mode, policy: policy, hasBackend: true, forcedOffline: false, localOnly: false)
                for stop in Self.stops(on: route, policy: policy) {
                    for code in OfflineStoreError.Code.all {
                        let row = "\(code) / \(mode) / \(policy) / \(stop.place)"
                        let error = OfflineStoreError(code, "what went wrong", dataFate: stop.fate)
                        let text = try! #require(error.recoverySuggestion, "\(row)")
                        #expect(text == RecoverySuggestion.text(for: code, fate: stop.fate, pendingEdits: nil))
                        Self.check(text, fate: stop.fate, row: row)
                        rows += 1
                    }
                }
            }
        }
        // 31 codes × (1 + 7 + 4 + 7 + 1 + 1) stops over the six mode × policy pairs.
        #expect(rows == OfflineStoreError.Code.all.count * 21)
    }

    /// Where each mode and policy can stop, and what became of the edit there (Docs/Policies.md).
    @Test func whatBecomesOfTheEditByModeAndPolicy() {
        func fates(_ mode: WriteMode, _ policy: UpdatePolicy) -> [Fate] {
            Self.stops(on: WriteRoute.decide(mode: mode, policy: policy, hasBackend: true, forcedOffline: false, localOnly: false),
                       policy: policy).map(\.fate)
        }
        #expect(fates(.immediate, .queueIfOffline) == [.notStored])
        #expect(fates(.deferred, .queueIfOffline) == [.notStored])
        #expect(fates(.deferred, .updateIfOnline) == [.notStored])
        #expect(fates(.awaitingServer, .queueIfOffline) == [.notStored, .storedAndHeld, .storedAndQueued, .storedAndSent])
        // held undone, held kept (the object moved on), not taken undone, not taken kept, upload unfinished (twice)
        let onlineOnly: [Fate] = [.notStored, .notStored, .storedAndHeld, .notStored, .storedAndQueued, .storedAndSent, .storedAndSent]
        #expect(fates(.awaitingServer, .updateIfOnline) == onlineOnly)
        #expect(fates(.immediate, .updateIfOnline) == onlineOnly)
    }

    /// Every code has a suggestion under every fate; one whose fate is unknown claims nothing
    /// about the change, and the calls that are not edits say what is true of the local data.
    @Test(arguments: OfflineStoreError.DataFate.all)
    func everyCodeHasASuggestionUnderEveryFate(_ fate: OfflineStoreError.DataFate) {
        for code in OfflineStoreError.Code.all {
            let text = RecoverySuggestion.text(for: code, fate: fate, pendingEdits: nil)
            #expect(text.count >= 10 && text.first?.isUppercase == true && text.hasSuffix("."), "\(code) / \(fate): \(text)")
            switch fate {
            case .unknown:
                #expect(!text.contains("Your change") && !text.contains("stay on this device"), "\(code) claims: \(text)")
            case .unchanged: #expect(text.hasPrefix("Nothing on this device was changed."), "\(code): \(text)")
            case .queuedEditsKept: #expect(text.hasPrefix("Changes not sent yet stay on this device"), "\(code): \(text)")
            case .stored: #expect(text.hasPrefix("Your change is saved on this device.") && !Self.asksToRedo(text), "\(code): \(text)")
            default: break
            }
        }
    }

    /// The two sentences a new user met, now as they are.
    @Test func aBusyStoreAndAnOnlineOnlyEditSayTheChangeWasNotSaved() {
        #expect(RecoverySuggestion.text(for: .locked, fate: .notStored, pendingEdits: nil)
                == "Your change was not saved. Another part of the app, or another app, is saving data; try again in a moment.")
        #expect(RecoverySuggestion.text(for: .offline, fate: .notStored, pendingEdits: nil)
                == "Your change was not saved. Try again when the device is online.")
        #expect(RecoverySuggestion.text(for: .offline, fate: .storedAndQueued, pendingEdits: nil)
                == "Your change is saved on this device and will be sent to the server later.")
    }

    /// Removing a damaged store's data loses its unsent edits: the suggestion says so, with
    /// their number when the store could count them, and never advises removing it silently.
    @Test(arguments: [OfflineStoreError.Code.corrupted, .notADatabase])
    func aDamagedStoreWarnsOfTheUnsentEdits(_ code: OfflineStoreError.Code) {
        let counted = RecoverySuggestion.text(for: code, fate: .unknown, pendingEdits: 3)
        #expect(counted.contains("3 changes still waiting to be sent") && counted.contains("keep a copy"), "\(counted)")
        #expect(RecoverySuggestion.text(for: code, fate: .unknown, pendingEdits: 1).contains("1 change still waiting to be sent"))
        let uncounted = RecoverySuggestion.text(for: code, fate: .unknown, pendingEdits: nil)
        #expect(uncounted.contains("every change still waiting to be sent") && uncounted.contains("keep a copy"), "\(uncounted)")
        let none = RecoverySuggestion.text(for: code, fate: .unknown, pendingEdits: 0)
        #expect(none.contains("No change waits to be sent") && none.contains("kept only on this device"), "\(none)")
        for text in [counted, uncounted, none] {
            #expect(!text.hasPrefix("Remove the app's local data"), "removing is never the advice without its cost: \(text)")
        }
    }
}
