import GRDBSQLite

/// A thin, checked wrapper over the sqlite3 C API: the baseline the store is compared with.
///
/// Opened like the store's writer: WAL journal and `synchronous = NORMAL` (what GRDB's
/// `DatabasePool` sets), so both sides pay the same durability.
final class RawSQLite {
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        let message: String
        var description: String { "SQLite error \(code): \(message)" }
    }

    let handle: OpaquePointer

    init(path: String) throws {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            sqlite3_close(db)
            throw Failure(code: rc, message: "cannot open \(path)")
        }
        handle = db
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
        guard let statement else { throw Failure(code: SQLITE_MISUSE, message: "empty statement") }
        return Statement(db: self, handle: statement)
    }

    func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW else {
            throw Failure(code: rc, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// A prepared statement, bound and run again and again.
    final class Statement {
        let db: RawSQLite
        let handle: OpaquePointer
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        init(db: RawSQLite, handle: OpaquePointer) {
            self.db = db
            self.handle = handle
        }

        deinit { sqlite3_finalize(handle) }

        func bind(_ index: Int32, _ text: String?) throws {
            guard let text else { return try db.check(sqlite3_bind_null(handle, index)) }
            try db.check(sqlite3_bind_text(handle, index, text, -1, Statement.transient))
        }

        func bind(_ index: Int32, _ value: Int64) throws {
            try db.check(sqlite3_bind_int64(handle, index, value))
        }

        func bind(_ index: Int32, _ value: Double) throws {
            try db.check(sqlite3_bind_double(handle, index, value))
        }

        /// Steps the bound query once: whether it has a row. Resets it for the next use.
        func hasRow() throws -> Bool {
            let rc = sqlite3_step(handle)
            try db.check(rc)
            try db.check(sqlite3_reset(handle))
            return rc == SQLITE_ROW
        }

        /// The first column of the first row as text (nil for no row or NULL); resets the statement.
        func text() -> String? {
            defer { sqlite3_reset(handle) }
            guard sqlite3_step(handle) == SQLITE_ROW, let text = sqlite3_column_text(handle, 0) else { return nil }
            return String(cString: text)
        }

        /// Runs the bound statement to completion and resets it for the next use.
        func run() throws {
            var rc = sqlite3_step(handle)
            while rc == SQLITE_ROW { rc = sqlite3_step(handle) }
            try db.check(rc)
            try db.check(sqlite3_reset(handle))
        }
    }
}
