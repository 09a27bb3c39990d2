/// How a failed edit is kept from leaving half of itself behind: its object row without
/// its queue entry, or the reverse.
///
/// Every check of an edit (id, members, schema, existence, how the queue can take it)
/// runs before its first write, so an edit that fails a check has written nothing. Only
/// SQLite itself (or an injected test fault) can fail after that.
enum EditIsolation {
    /// The edit is alone in its transaction and every error it throws escapes that
    /// transaction, which then rolls back whole: nothing more is needed.
    case ownTransaction
    /// The edit shares a transaction whose caller may catch its error and commit the rest
    /// (a ``LocalTransaction`` block). A failure after the edit's first write trips the
    /// latch, and the transaction can then only roll back whole.
    case shared(RollbackLatch)
    /// As ``shared(_:)``, but in a savepoint that a failure rolls back, so the rest of the
    /// transaction can still commit. For stores with a size limit, whose `storeFull` check
    /// can only run after writing and must leave nothing behind (Docs/Policies.md).
    case savepoint
}

/// Trips when an edit of a ``LocalTransaction`` fails after writing part of itself; the
/// transaction then accepts no more edits and rolls back whole, whatever its block does.
///
/// It replaces a savepoint per edit (`SAVEPOINT`/`RELEASE` and SQLite's statement journal),
/// which callgrind put at 17 % of a bulk edit's instructions, for a failure that only a
/// storage error can cause.
final class RollbackLatch {
    /// The first error thrown after an edit had started writing, if any.
    private(set) var failure: (any Error)?

    /// Runs the writes of one edit; an error they throw trips the latch and is rethrown.
    func guarding<T>(_ writes: () throws -> T) throws -> T {
        do {
            return try writes()
        } catch {
            if failure == nil { failure = error }
            throw error
        }
    }

    /// Throws when an earlier edit tripped the latch: the transaction is bound to roll back.
    func check() throws {
        guard let failure else { return }
        throw OfflineStoreError(.storage, "an earlier edit of this transaction failed after writing part of itself "
            + "(\(failure)); the transaction rolls back whole and accepts no more edits")
    }
}
