import GRDB
import GRDBSQLite

/// The statements a local edit runs, named, so that the writer connection can keep them
/// prepared without looking them up by their SQL text.
enum HotQuery: Int, CaseIterable {
    case beginImmediate, commit
    case savepoint, releaseSavepoint, rollbackToSavepoint
    case fetchObject, saveObject, insertNewObject, insertNewServerCopy
    case lastQueueEntry, appendQueueEntry

    /// The statement's SQL (one statement, `?` parameters).
    var sql: String {
        switch self {
        case .beginImmediate: "BEGIN IMMEDIATE TRANSACTION"
        case .commit: "COMMIT TRANSACTION"
        case .savepoint: "SAVEPOINT offline_store_edit"
        case .releaseSavepoint: "RELEASE SAVEPOINT offline_store_edit"
        case .rollbackToSavepoint: "ROLLBACK TRANSACTION TO SAVEPOINT offline_store_edit"
        case .fetchObject: "SELECT \(ObjectRow.columns) FROM objects WHERE collection = ? AND id = ?"
        case .saveObject: """
            INSERT INTO objects(\(ObjectRow.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(collection, id) DO UPDATE SET persistent = excluded.persistent, local = excluded.local,
            dirty = excluded.dirty, base = excluded.base, base_version = excluded.base_version,
            server_version = excluded.server_version, state = excluded.state, local_rev = excluded.local_rev
            """
        case .insertNewObject: """
            INSERT INTO objects(\(ObjectRow.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(collection, id) DO NOTHING
            """
        case .insertNewServerCopy: """
            INSERT INTO objects(collection, id, persistent, server_version, state) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(collection, id) DO NOTHING
            """
        case .lastQueueEntry: """
            SELECT seq, kind, state, attempts FROM queue WHERE collection = ? AND object_id = ? ORDER BY seq DESC LIMIT 1
            """
        case .appendQueueEntry: """
            INSERT INTO queue(collection, object_id, kind, base_version, idempotency_key, state, created_at)
            VALUES (?, ?, ?, ?, ?, 'pending', ?)
            """
        }
    }
}

/// The store's writer connection's ``HotQuery`` statements, prepared once for the store's life.
///
/// `Database.cachedStatement(sql:)` hashes and compares the whole SQL text on every call
/// (the object upsert is over 400 characters): callgrind counted about 2.6 k instructions per
/// lookup, six lookups per edit. Here a statement is found by its ``HotQuery`` index. The
/// statements are private to this cache (GRDB's cache never hands them out), so the
/// arguments state GRDB keeps on them is only ever changed here.
///
/// `@unchecked Sendable`: it is only used inside write accesses of the store's pool, which
/// GRDB runs one at a time on the writer connection, and by ``ObjectStore/close()`` inside
/// such an access too.
final class WriterStatements: @unchecked Sendable {
    private var connection: ObjectIdentifier?
    private var statements = [Statement?](repeating: nil, count: HotQuery.allCases.count)
    /// The buffers each statement's text parameters are bound from (``BoundText``).
    private var texts = [BoundText?](repeating: nil, count: HotQuery.allCases.count)

    /// The prepared statement of `query` on `db` (prepared on first use), reset.
    func statement(_ query: HotQuery, in db: Database) throws -> Statement {
        let id = ObjectIdentifier(db)
        if connection != id {
            // Only the writer connection comes here; a different one gets its own statements.
            removeAll()
            connection = id
        }
        if let statement = statements[query.rawValue] {
            // After a failed step (say `BEGIN` while another process held the lock), the next
            // reset reports that error again, and GRDB's `execute()` resets first: clear it here.
            sqlite3_reset(statement.sqliteStatement)
            return statement
        }
        let statement = try db.makeStatement(sql: query.sql)
        // Marks GRDB's arguments as set (none), once: `execute()` then keeps the bindings
        // that ``HotStatement`` makes before every run.
        statement.setUncheckedArguments([])
        statements[query.rawValue] = statement
        return statement
    }

    /// The buffers `query`'s text parameters are bound from; call after ``statement(_:in:)``.
    func texts(of query: HotQuery) -> BoundText {
        if let texts = texts[query.rawValue] { return texts }
        let texts = BoundText()
        self.texts[query.rawValue] = texts
        return texts
    }

    /// Finalizes every statement: before the connection closes (an unfinalized statement
    /// makes `sqlite3_close` fail), and after the schema changes, as GRDB does with its cache.
    /// Their text buffers go after them (a prepared statement may point into them).
    func removeAll() {
        for i in statements.indices { statements[i] = nil }
        for i in texts.indices { texts[i] = nil }
    }
}
