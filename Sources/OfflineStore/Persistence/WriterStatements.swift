import GRDB
import GRDBSQLite

/// The statements a local edit runs, named, so that the writer connection can keep them
/// prepared without looking them up by their SQL text.
enum HotQuery: Int, CaseIterable {
    case beginImmediate, commit
    case savepoint, releaseSavepoint, rollbackToSavepoint
    case fetchObject, saveObject, insertNewLocalObject, insertNewServerCopy
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
        case .insertNewLocalObject: """
            INSERT INTO objects(collection, id, local, dirty, state, local_rev) VALUES (?, ?, ?, ?, ?, ?)
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
    /// A prepared statement and the buffers its text parameters are bound from.
    private struct Entry {
        var statement: Statement?
        var texts: BoundText?
    }

    // Behind pointers allocated once rather than in `var` properties, which Swift checks for
    // exclusivity at run time on every access (an edit looks up four statements).
    private let connection: UnsafeMutablePointer<ObjectIdentifier?>
    private let entries: UnsafeMutableBufferPointer<Entry>

    init() {
        connection = .allocate(capacity: 1)
        connection.initialize(to: nil)
        entries = .allocate(capacity: HotQuery.allCases.count)
        entries.initialize(repeating: Entry())
    }

    deinit {
        // The statements go before their text buffers (a prepared statement may point into them).
        removeAll()
        entries.deinitialize()
        entries.deallocate()
        connection.deinitialize(count: 1)
        connection.deallocate()
    }

    /// The prepared statement of `query` on `db` (prepared on first use), reset.
    func statement(_ query: HotQuery, in db: Database) throws -> Statement {
        let id = ObjectIdentifier(db)
        if connection.pointee != id {
            // Only the writer connection comes here; a different one gets its own statements.
            removeAll()
            connection.pointee = id
        }
        if let statement = entries[query.rawValue].statement {
            // After a failed step (say `BEGIN` while another process held the lock), the next
            // reset reports that error again, and GRDB's `execute()` resets first: clear it here.
            sqlite3_reset(statement.sqliteStatement)
            return statement
        }
        let statement = try db.makeStatement(sql: query.sql)
        // Marks GRDB's arguments as set (none), once: `execute()` then keeps the bindings
        // that ``HotStatement`` makes before every run.
        statement.setUncheckedArguments([])
        entries[query.rawValue].statement = statement
        return statement
    }

    /// The buffers `query`'s text parameters are bound from; call after ``statement(_:in:)``.
    func texts(of query: HotQuery) -> BoundText {
        if let texts = entries[query.rawValue].texts { return texts }
        let count = entries[query.rawValue].statement.map { Int(sqlite3_bind_parameter_count($0.sqliteStatement)) } ?? 0
        let texts = BoundText(parameterCount: count)
        entries[query.rawValue].texts = texts
        return texts
    }

    /// Finalizes every statement: before the connection closes (an unfinalized statement
    /// makes `sqlite3_close` fail), and after the schema changes, as GRDB does with its cache.
    /// Their text buffers go after them (a prepared statement may point into them).
    func removeAll() {
        for i in entries.indices { entries[i].statement = nil }
        for i in entries.indices { entries[i].texts = nil }
    }
}
