import GRDB

/// The savepoint around one local edit, so that a failed edit leaves nothing behind even
/// inside a larger transaction whose caller catches the error and commits the rest.
///
/// Same semantics as GRDB's `Database.inSavepoint`, with its three statements prepared
/// once on the writer (``WriterStatements``) instead of parsed for every edit: in a bulk
/// transaction that parsing was about a seventh of each edit's instructions (callgrind).
/// GRDB tracks raw savepoint statements itself, so transaction observers see the same events.
enum EditSavepoint {
    static func run<T>(_ db: Database, on writer: WriterStatements, _ body: () throws -> T) throws -> T {
        guard db.isInsideTransaction else {
            // Outside a transaction GRDB opens an immediate transaction rather than a top-level savepoint.
            var result: T?
            try db.inTransaction {
                result = try body()
                return .commit
            }
            return result!
        }
        try writer.statement(.savepoint, in: db).execute()
        let result: T
        do {
            result = try body()
        } catch {
            // Roll back to the savepoint, then leave it; the edit's own error is what the caller sees.
            do {
                try writer.statement(.rollbackToSavepoint, in: db).execute()
                try writer.statement(.releaseSavepoint, in: db).execute()
            } catch {}
            throw error
        }
        try writer.statement(.releaseSavepoint, in: db).execute()
        return result
    }
}
