import Foundation
import GRDB

/// What the edit path and a refresh's pulled changes write inside a write transaction, named
/// by intention: the writer's own prepared statements (``WriterStatements``), their binding and
/// their columns stay in this folder.
extension LocalStore {
    /// The object's row, read on the writer's statements; nil when it has none.
    func row(_ db: Database, collection: String, id: String) throws -> ObjectRow? {
        try ObjectRow.fetch(db, collection: collection, id: id, on: writerStatements)
    }

    /// Writes the object's row (inserted or replaced).
    func save(_ row: ObjectRow, in db: Database) throws {
        try row.save(db, on: writerStatements)
    }

    /// Inserts a new object's row; false, having written nothing, when the object has a row
    /// (``ObjectRow/insertIfNew(_:on:)``).
    func insertIfNew(_ row: ObjectRow, in db: Database) throws -> Bool {
        try row.insertIfNew(db, on: writerStatements)
    }

    /// Stores a new synced object from its server copy's canonical text; false, having written
    /// nothing, when the object has a row (``ObjectRow/insertServerCopyIfNew(_:collection:id:text:version:on:)``).
    func insertServerCopyIfNew(_ db: Database, collection: String, id: String, text: [UInt8], version: String) throws -> Bool {
        try ObjectRow.insertServerCopyIfNew(db, collection: collection, id: id, text: text, version: version, on: writerStatements)
    }

    /// What coalescing needs of the object's last queue entry; nil when it has none.
    func lastQueueEntry(_ db: Database, collection: String, id: String) throws -> QueueTable.LastEntry? {
        try QueueTable.lastEntry(db, collection: collection, id: id, on: writerStatements)
    }

    /// Appends a queue entry for the object.
    func appendQueueEntry(_ db: Database, collection: String, id: String, kind: QueueEntry.Kind, baseVersion: String?,
                          now: Date) throws {
        try QueueTable.append(db, collection: collection, id: id, kind: kind, baseVersion: baseVersion, now: now,
                              on: writerStatements)
    }

    /// Runs one edit's writes in a savepoint (``EditSavepoint``): a failure leaves nothing behind.
    func inEditSavepoint<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try EditSavepoint.run(db, on: writerStatements, body)
    }

    /// Stores a collection's descriptor; returns the one stored before, if any
    /// (``CollectionsTable/save(_:in:statements:)``).
    func saveDescriptor(_ descriptor: CollectionDescriptor, in db: Database) throws -> StoredDescriptor? {
        try CollectionsTable.save(descriptor, in: db, statements: writerStatements)
    }
}
