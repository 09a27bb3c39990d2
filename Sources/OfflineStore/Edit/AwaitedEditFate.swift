/// What became of an edit that committed locally, was pushed, and was not (wholly) taken by
/// the server: a pure decision from how the server answered, the update policy, and whether
/// the online-only edit could be undone (Docs/Policies.md, "Awaiting the server").
enum AwaitedEditFate {
    /// Where the edit stands after the push.
    enum Answer: Sendable, Hashable, CaseIterable {
        /// The server rejected its entry (a failed entry) or it met a conflict the policy left
        /// for the app: it waits for the app's decision.
        case held
        /// Its entries are still queued: the push stopped before them, or did not confirm them.
        case notTaken
        /// The server applied the edit; a blob it attached is not uploaded yet, or was refused.
        case uploadUnfinished
    }

    /// The edit's fate. `undone` says whether an online-only edit was put back as it was
    /// (false when the object moved on meanwhile, or under queue-if-offline, which never undoes).
    static func decide(_ answer: Answer, policy: UpdatePolicy, undone: Bool) -> OfflineStoreError.DataFate {
        switch answer {
        case .uploadUnfinished: .storedAndSent
        case .held: policy == .updateIfOnline && undone ? .notStored : .storedAndHeld
        case .notTaken: policy == .updateIfOnline && undone ? .notStored : .storedAndQueued
        }
    }
}
