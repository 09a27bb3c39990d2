import GRDB

/// The edits of a ``LocalTransaction`` block: one transaction, queued whatever the write mode.
extension EditEngine {
    /// A transaction whose edits follow `override` instead of each collection's update policy.
    func transaction<T: Sendable>(policy override: UpdatePolicy?, _ body: (LocalTransaction) throws -> T) async throws -> T {
        let usesOnlineOnly = local.collections.all.contains {
            !$0.isLocalOnly && effectiveUpdatePolicy($0, override: override) == .updateIfOnline
        }
        var reachability = Reachability.offline
        if usesOnlineOnly { reachability = await self.reachability() }
        // The block's own errors reach the caller as they are; SQLite's become OfflineStoreErrors.
        var bodyError: (any Error)?
        do {
            return try local.write("running a transaction") { db in
                let latch = RollbackLatch()
                do {
                    let result = try body(LocalTransaction(engine: self, db: db, onlineCheck: { d in
                        if !d.isLocalOnly, self.effectiveUpdatePolicy(d, override: override) == .updateIfOnline,
                           let error = EditEngine.onlineOnlyError(reachability, collection: d.name) { throw error }
                    }, latch: latch))
                    // An edit failed half-written and the block caught it: roll back whole.
                    if let failure = latch.failure { throw failure }
                    return result
                } catch {
                    // After an edit failed half-written, that failure is what the caller learns,
                    // whatever the block did with it.
                    let first = latch.failure ?? error
                    if !(first is DatabaseError) { bodyError = first }
                    throw first
                }
            }
        } catch {
            // Nothing of the block was stored; the block's own errors reach the caller as they are.
            if let bodyError { throw (bodyError as? OfflineStoreError)?.beforeStoring ?? bodyError }
            throw (error as? OfflineStoreError)?.beforeStoring ?? error
        }
    }
}
