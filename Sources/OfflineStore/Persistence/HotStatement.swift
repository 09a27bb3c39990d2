import GRDB
import GRDBSQLite

/// Binds and steps a GRDB cached statement through the `sqlite3_*` API, for the few
/// statements every edit and every pulled record runs.
///
/// GRDB's row API costs more than SQLite's own work there (callgrind: `StatementArguments`
/// arrays of existentials, argument validation, a lowercased column-name dictionary per
/// fetched `Row`, about 60 k instructions per edit). Reads step the statement directly and
/// register their region with GRDB (`registerAccess`), so a `ValueObservation` reading
/// through them still tracks their tables; writes bind directly but still execute through
/// GRDB (`Statement.execute()`), so its transaction observers see them as before.
struct HotStatement {
    private let statement: Statement
    /// Where the writer's own statements bind text from (``BoundText``); nil for a GRDB
    /// cached statement, whose texts SQLite copies.
    private let texts: BoundText?
    private var handle: SQLiteStatement { statement.sqliteStatement }
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// A write statement, to bind and run with ``execute()``: the writer's own prepared
    /// statement when `writer` is given (the local edit path), else the connection's GRDB
    /// cached statement for the query's SQL.
    static func write(_ db: Database, _ query: HotQuery, on writer: WriterStatements? = nil) throws -> HotStatement {
        try HotStatement(db, query, writer: writer, write: true)
    }

    /// A read statement, to bind and step with ``first(_:)``; `writer` as in ``write(_:_:on:)``.
    static func read(_ db: Database, _ query: HotQuery, on writer: WriterStatements? = nil) throws -> HotStatement {
        try HotStatement(db, query, writer: writer, write: false)
    }

    /// The statement, reset; every parameter must be bound before it runs.
    private init(_ db: Database, _ query: HotQuery, writer: WriterStatements?, write: Bool) throws {
        if let writer {
            // Private to the writer's cache, which resets it: GRDB's arguments were marked set
            // when it was prepared, and every run binds all its parameters again.
            statement = try writer.statement(query, in: db)
            texts = writer.texts(of: query)
        } else {
            statement = try db.cachedStatement(sql: query.sql)
            texts = nil
            sqlite3_reset(statement.sqliteStatement)
            if write {
                // Marks GRDB's arguments as set (none), so that `execute()` keeps the bindings
                // made below whatever an earlier user of the cached statement left behind.
                statement.setUncheckedArguments([])
            } else {
                sqlite3_clear_bindings(statement.sqliteStatement)
            }
        }
        if !write {
            // A read stepped here bypasses GRDB, so a ValueObservation would not learn which
            // tables it depends on: tell it (a no-op unless an observation is recording).
            let statement = self.statement
            try db.registerAccess(to: statement.databaseRegion)
        }
    }

    /// Binds text (or NULL) to the 1-based parameter `index`.
    ///
    /// Binds the string's own UTF-8 bytes with their length: passing a `String` where C wants
    /// a `char *` makes Swift copy it into a new NUL-terminated array first (`utf8CString`).
    func bind(_ index: Int32, _ text: String?) throws {
        guard let text else { return try check(sqlite3_bind_null(handle, index)) }
        let code = text.utf8.withContiguousStorageIfAvailable { bytes in
            bindUTF8(index, UnsafeRawBufferPointer(bytes))
        } ?? sqlite3_bind_text(handle, index, text, -1, HotStatement.transient)
        try check(code)
    }

    /// Binds the compact JSON text of `value` (or NULL), written straight into a byte buffer:
    /// the same text as ``JSONValue/serialized()`` without building a `String` from it.
    func bindJSON(_ index: Int32, _ value: JSONValue?) throws {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        if let texts { return try check(texts.bindJSON(handle, index, value)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        value.write(into: &bytes)
        try check(bytes.withUnsafeBytes { bindUTF8(index, $0) })
    }

    /// Binds JSON text that is already in the store's canonical form (``CanonicalJSON``).
    func bindJSONText(_ index: Int32, _ bytes: [UInt8]) throws {
        try check(bytes.withUnsafeBytes { bindUTF8(index, $0) })
    }

    /// Binds UTF-8 bytes as text: from the writer statement's own buffers (``BoundText``),
    /// else copied by SQLite (`SQLITE_TRANSIENT`).
    private func bindUTF8(_ index: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        if let texts { return texts.bind(handle, index, bytes) }
        // An empty buffer may have no address, and NULL would bind NULL rather than empty text.
        guard let start = bytes.baseAddress, !bytes.isEmpty else {
            return sqlite3_bind_text(handle, index, "", 0, HotStatement.transient)
        }
        return sqlite3_bind_text64(handle, index, start.assumingMemoryBound(to: CChar.self), sqlite3_uint64(bytes.count),
                                   HotStatement.transient, UInt8(SQLITE_UTF8))
    }

    /// Binds an integer to the 1-based parameter `index`.
    func bind(_ index: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds a real to the 1-based parameter `index`.
    func bind(_ index: Int32, _ value: Double) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Runs a write with the bound values through GRDB, which notifies its observers.
    func execute() throws {
        try statement.execute()
    }

    /// How many rows the last write on the statement's connection changed (`sqlite3_changes`):
    /// GRDB's `changesCount` checks the calling queue first, about 200 instructions a call.
    var changes: Int { Int(sqlite3_changes(sqlite3_db_handle(handle))) }

    /// The rowid the last insert on the statement's connection made (`sqlite3_last_insert_rowid`).
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(sqlite3_db_handle(handle)) }

    /// Steps a read once and gives its first row to `body`; nil when there is none.
    /// The statement is reset afterwards, so it holds no read lock.
    func first<T>(_ body: (HotRow) throws -> T) throws -> T? {
        defer { sqlite3_reset(handle) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return try body(HotRow(handle: handle))
        case SQLITE_DONE: return nil
        case let code: throw failure(code)
        }
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw failure(code) }
    }

    private func failure(_ code: Int32) -> DatabaseError {
        let message = sqlite3_errmsg(sqlite3_db_handle(handle)).map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
    }
}

/// The current row of a ``HotStatement`` read, by 0-based column index.
struct HotRow {
    fileprivate let handle: SQLiteStatement

    /// Whether the column is NULL.
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as text; nil for NULL.
    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column as an integer (0 for NULL).
    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
}
