import GRDB
@testable import OfflineStore

extension SyncEngine {
    /// The stored pull cursor of a collection, as the resets and the refresh pipeline leave it
    /// (read by the tests only: the library has no use for it outside a refresh).
    func storedCursor(of collection: String) throws -> String? {
        try read("reading the cursor of \(collection)") { db in try CollectionsTable.cursor(of: collection, in: db) }
    }
}
