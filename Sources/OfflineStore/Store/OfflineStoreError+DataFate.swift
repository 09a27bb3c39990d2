extension OfflineStoreError {
    /// What became of the app's data when a call failed: whether the edit is on this device,
    /// queued, on the server, or not stored at all.
    ///
    /// Set by the code path that threw, because only it knows: an edit refused by a check or
    /// by a busy store wrote nothing (``notStored``); an edit that committed and then met the
    /// server is stored and queued, held for the app, or undone, as Docs/Policies.md says.
    /// ``OfflineStoreError/recoverySuggestion`` is derived from it and the code, so it never
    /// says "kept" of an edit that was not. An error made without one is ``unknown``, and its
    /// suggestion claims nothing about the data.
    ///
    /// Compare with the static members (`error.dataFate == .notStored`) and keep a `default`
    /// branch: fates may be added.
    public struct DataFate: Sendable, Hashable, CustomStringConvertible {
        enum Base: String, Sendable, Hashable, CaseIterable {
            case unknown, notStored, stored, storedAndQueued, storedAndHeld, storedAndSent, unchanged, queuedEditsKept
        }
        let base: Base
        /// The fate's name, e.g. "notStored".
        public var description: String { base.rawValue }

        /// The call could not tell (or the error was made outside the store): nothing is
        /// claimed about the data.
        public static let unknown = DataFate(base: .unknown)
        /// The edit (or transaction, or decision on a queued edit) was not stored: nothing of
        /// it is on this device or in the queue. To keep it, the app makes it again.
        public static let notStored = DataFate(base: .notStored)
        /// The edit is stored on this device; whether it was sent is not known to the call
        /// (e.g. it was stored, but reading the result back failed). ``ObjectStore/status(of:id:)``
        /// tells.
        public static let stored = DataFate(base: .stored)
        /// The edit is stored on this device and queued: a later flush, sync, `AutoSync` run
        /// or the background sender sends it, with nothing for the app to do.
        public static let storedAndQueued = DataFate(base: .storedAndQueued)
        /// The edit is stored on this device, but the server did not take it and it waits for
        /// the app: a conflict to resolve or a failed entry to retry or discard.
        public static let storedAndHeld = DataFate(base: .storedAndHeld)
        /// The edit is stored on this device and the server applied it; what failed came
        /// after (e.g. the upload of a blob it attached).
        public static let storedAndSent = DataFate(base: .storedAndSent)
        /// The call was not an edit (a read, opening a store, a registration, a refused
        /// logout): it changed nothing on this device.
        public static let unchanged = DataFate(base: .unchanged)
        /// A flush, refresh or sync stopped: what it did before is stored, and every edit not
        /// yet sent stays queued on this device for the next run.
        public static let queuedEditsKept = DataFate(base: .queuedEditsKept)

        /// Every fate, in declaration order (for tests and docs).
        static var all: [DataFate] { Base.allCases.map { DataFate(base: $0) } }
    }

    /// The same error, with what became of the data, as the code path that threw knows it.
    func with(_ fate: DataFate) -> OfflineStoreError {
        OfflineStoreError(self, dataFate: fate, pendingEdits: pendingEdits)
    }

    /// The same error, as the failure of an edit that did not commit: not stored, unless the
    /// path that threw already said more (an edit that committed before it failed).
    var beforeStoring: OfflineStoreError {
        dataFate == .unknown || dataFate == .unchanged ? with(.notStored) : self
    }

    /// The same error, as a failed read or a write that rolled back: nothing changed, unless
    /// the path that threw said more.
    var orUnchanged: OfflineStoreError {
        dataFate == .unknown ? with(.unchanged) : self
    }

    /// The same error, with the number of edits the store holds unsent, where it could count them.
    func counting(pendingEdits count: Int?) -> OfflineStoreError {
        OfflineStoreError(self, dataFate: dataFate, pendingEdits: count)
    }

    /// Runs the checks and writes of one edit call: an ``OfflineStoreError`` that escapes is
    /// ``DataFate/notStored`` unless the path that threw said otherwise.
    static func refusingEdit<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as OfflineStoreError { throw error.beforeStoring }
    }

    /// ``refusingEdit(_:)`` for an edit that awaits.
    static func refusingEdit<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as OfflineStoreError { throw error.beforeStoring }
    }

    /// Runs a step after an edit committed: an ``OfflineStoreError`` that escapes says the
    /// edit is stored (`fate`), not what the step alone would say of the data.
    static func afterStoring<T>(_ fate: DataFate, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as OfflineStoreError { throw error.with(fate) }
    }
}
