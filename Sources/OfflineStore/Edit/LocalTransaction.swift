import GRDB

/// Edits made inside ``ObjectStore/transaction(_:)``: all commit together or none does.
///
/// Edits here are always local and queued (deferred), whatever the write mode: send
/// them with `flush` or `sync`. Reads see the transaction's own edits.
///
/// An edit that fails a check (`invalidID`, `schemaViolation`, `notFound`, `offline`, …)
/// writes nothing: the block may catch its error and go on. An edit that fails while
/// writing (a `storage` error: SQLite's errors reach the block as ``OfflineStoreError``s, as
/// they reach the caller) makes the whole transaction roll back: later edits and reads
/// in the block throw, and ``ObjectStore/transaction(_:)`` throws that first error even
/// when the block caught it. On a store with ``ObjectStore/Configuration/maxStoreSize``,
/// an edit refused with `storeFull` writes nothing and the block may go on.
public struct LocalTransaction {
    let engine: EditEngine
    let db: Database
    let onlineCheck: (CollectionDescriptor) throws -> Void
    /// Trips when an edit fails after writing part of itself (see ``EditIsolation``).
    let latch: RollbackLatch

    /// Edits on a store with a size limit keep a savepoint each, so that a `storeFull`
    /// refusal, which can only come after writing, leaves the rest of the block free to commit.
    private var isolation: EditIsolation {
        engine.configuration.maxStoreSize == nil ? .shared(latch) : .savepoint
    }

    private func descriptor(_ collection: String) throws -> CollectionDescriptor {
        try OfflineStoreError.refusingEdit {
            let d = try engine.local.collections.descriptor(of: collection)
            try onlineCheck(d)
            return d
        }
    }

    /// Creates an object; returns it with its id.
    @discardableResult
    public func create(_ object: JSONValue, in collection: String) throws -> JSONValue {
        try typed("creating an object in \(collection)") {
            try engine.apply(.create(object), to: descriptor(collection), in: db, isolation: isolation) ?? object
        }
    }

    /// Creates or replaces an object.
    @discardableResult
    public func save(_ object: JSONValue, in collection: String) throws -> JSONValue {
        try typed("saving an object in \(collection)") {
            try engine.apply(.save(object), to: descriptor(collection), in: db, isolation: isolation) ?? object
        }
    }

    /// Replaces an existing object.
    @discardableResult
    public func replace(_ id: String, with object: JSONValue, in collection: String) throws -> JSONValue {
        try typed("replacing \(collection)/\(id)") {
            try engine.apply(.replace(id: id, with: object), to: descriptor(collection), in: db, isolation: isolation) ?? object
        }
    }

    /// Merges fields into an existing object (`null` removes a field).
    @discardableResult
    public func patch(_ id: String, _ fields: [String: JSONValue], in collection: String) throws -> JSONValue {
        try typed("patching \(collection)/\(id)") {
            try engine.apply(.patch(id: id, fields: fields), to: descriptor(collection), in: db, isolation: isolation) ?? .null
        }
    }

    /// Deletes an object.
    public func destroy(_ id: String, in collection: String) throws {
        _ = try typed("deleting \(collection)/\(id)") {
            try engine.apply(.destroy(id: id), to: descriptor(collection), in: db, isolation: isolation)
        }
    }

    /// Applies any local edit (the typed layer's saves keep unknown fields this way).
    func apply(_ edit: LocalEdit, in collection: String) throws -> JSONValue? {
        try typed("writing an object in \(collection)") {
            try engine.apply(edit, to: descriptor(collection), in: db, isolation: isolation)
        }
    }

    /// Reads an object as the app sees it, including this transaction's edits.
    public func find(_ id: String, in collection: String) throws -> JSONValue? {
        try latch.check()
        return try typed("reading \(collection)/\(id)") { try ObjectRow.fetch(db, collection: collection, id: id)?.effective }
    }

    /// Runs one call of the block against the database: SQLite's errors reach the block as
    /// typed `storage` errors (``OfflineStoreError/Code/storage``), as they reach the caller of
    /// ``ObjectStore/transaction(_:)``; every other error as it is.
    private func typed<T>(_ action: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as DatabaseError { throw OfflineStoreError.storage(error, while: action()) }
    }
}

extension ObjectStore {
    /// Runs a block of edits in one transaction (RhoConnect startBulkUpdate / stopBulkUpdate).
    ///
    /// Either every edit commits, with its queue entries, or none does (the block
    /// threw, or an edit failed while writing: see ``LocalTransaction``). Edits are queued,
    /// not sent: call `flush` or `sync` afterwards.
    /// Collections under `updateIfOnline` need a reachable server when the block starts.
    ///
    /// - Throws: the block's error; the error of an edit that failed while writing, even
    ///   if the block caught it; or ``OfflineStoreError`` (`offline` for `updateIfOnline`
    ///   collections without a server, `storage` for SQLite's errors).
    @discardableResult
    public func transaction<T: Sendable>(_ body: (LocalTransaction) throws -> T) async throws -> T {
        try await editEngine.transaction(policy: nil, body)
    }
}
