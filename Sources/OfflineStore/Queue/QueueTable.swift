import Foundation
import GRDB

/// Reads and writes of the `queue` table; every function runs inside the caller's transaction.
enum QueueTable {
    static let columns = """
        seq, collection, object_id, kind, base_version, idempotency_key, attempts, last_error, \
        status, response_body, state, created_at, not_before
        """

    static func entry(_ row: Row) throws -> QueueEntry {
        let kindName: String = row["kind"]
        let stateName: String = row["state"]
        guard let kind = QueueEntry.Kind(rawValue: kindName), let state = QueueEntry.State(rawValue: stateName) else {
            throw OfflineStoreError(.corrupted, "queue entry \(row["seq"] as Int64) has an unknown kind or state")
        }
        let notBefore: Double? = row["not_before"]
        return QueueEntry(
            seq: row["seq"], collection: row["collection"], objectID: row["object_id"], kind: kind,
            baseVersion: row["base_version"], idempotencyKey: row["idempotency_key"], attempts: row["attempts"],
            lastError: row["last_error"], status: row["status"], responseBody: row["response_body"], state: state,
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            notBefore: notBefore.map { Date(timeIntervalSince1970: $0) })
    }

    static func fetch(_ db: Database, where clause: String = "1", arguments: StatementArguments = []) throws -> [QueueEntry] {
        try Row.fetchAll(db, sql: "SELECT \(columns) FROM queue WHERE \(clause) ORDER BY seq", arguments: arguments)
            .map(entry)
    }

    static func entries(_ db: Database, collection: String, id: String) throws -> [QueueEntry] {
        let statement = try db.cachedStatement(
            sql: "SELECT \(columns) FROM queue WHERE collection = ? AND object_id = ? ORDER BY seq")
        return try Row.fetchAll(statement, arguments: [collection, id]).map(entry)
    }

    static func latest(_ db: Database, collection: String, id: String) throws -> QueueEntry? {
        let statement = try db.cachedStatement(
            sql: "SELECT \(columns) FROM queue WHERE collection = ? AND object_id = ? ORDER BY seq DESC LIMIT 1")
        return try Row.fetchOne(statement, arguments: [collection, id]).map(entry)
    }

    @discardableResult
    static func append(_ db: Database, collection: String, id: String, kind: QueueEntry.Kind,
                       baseVersion: String?, now: Date, on writer: WriterStatements? = nil) throws -> Int64 {
        let statement = try HotStatement.write(db, .appendQueueEntry, on: writer)
        try statement.bind(1, collection)
        try statement.bind(2, id)
        try statement.bind(3, kind.rawValue)
        try statement.bind(4, baseVersion)
        try statement.bind(5, UUID.random().lowercaseString)
        try statement.bind(6, now.timeIntervalSince1970)
        try statement.execute()
        return db.lastInsertedRowID
    }

    static func setKind(_ db: Database, seq: Int64, kind: QueueEntry.Kind) throws {
        try db.cachedStatement(sql: "UPDATE queue SET kind = ? WHERE seq = ?").execute(arguments: [kind.rawValue, seq])
    }

    static func remove(_ db: Database, seq: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM queue WHERE seq = ?").execute(arguments: [seq])
    }

    static func removeAll(_ db: Database, collection: String, id: String) throws {
        try db.execute(sql: "DELETE FROM queue WHERE collection = ? AND object_id = ?", arguments: [collection, id])
    }

    /// Points every later entry of the object at a new server version (after an earlier one was applied).
    static func rebase(_ db: Database, collection: String, id: String, onto version: String?) throws {
        try db.execute(sql: "UPDATE queue SET base_version = ? WHERE collection = ? AND object_id = ?",
                       arguments: [version, collection, id])
    }
}
