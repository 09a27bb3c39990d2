import Foundation
import GRDB
import Testing
@testable import OfflineStore

/// The watched creates (`LateDeliveryTable`): a bounded table, and a schema step that an
/// existing store file takes when it opens.
@Suite struct LateDeliveryTableTests {
    @Test func theTableKeepsAtMostItsLimitAndForgetsWhatIsOutOfTheWindow() async throws {
        try await withTemporaryStore { store in
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            let count = try store.local.write("watching") { db -> Int in
                let creates = (0..<(LateDeliveryTable.limit + 5)).map { ("todos", "k\($0)", #"{"id":"k\#($0)"}"#) }
                try LateDeliveryTable.watch(creates, at: start, in: db)
                try LateDeliveryTable.watch([("todos", "late", #"{"id":"late"}"#)], at: start.addingTimeInterval(60), in: db)
                try LateDeliveryTable.prune(now: start.addingTimeInterval(60), window: .seconds(3600), in: db)
                return try LateDeliveryTable.watched(in: "todos", in: db).count
            }
            #expect(count == LateDeliveryTable.limit)
            let left = try store.local.write("pruning") { db -> [String] in
                try LateDeliveryTable.prune(now: start.addingTimeInterval(3630), window: .seconds(3600), in: db)
                return try LateDeliveryTable.watched(in: "todos", in: db).map(\.objectID)
            }
            #expect(left == ["late"])  // the rest was given up on more than the window ago
        }
    }

    @Test func anOlderStoreFileGainsTheTablesAndKeepsItsData() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.path("store.sqlite")
            let store = try ObjectStore(path: path)
            try store.register(CollectionDescriptor("todos"))
            try await store.collection("todos").create(["id": "a"])
            try store.close()
            // The file as the previous version left it: no late-write tables, no migration row.
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: """
                    DROP TABLE late_writes; DROP TABLE late_write_undos;
                    DELETE FROM grdb_migrations WHERE identifier = 'v5-late-writes'
                    """)
            }
            try queue.close()
            let reopened = try ObjectStore(path: path)
            defer { try? reopened.close() }
            #expect(try reopened.collection("todos").find("a") == ["id": "a"])
            let watched = try reopened.local.write("reading") { db in try LateDeliveryTable.watched(in: "todos", in: db) }
            #expect(watched.isEmpty)
        }
    }
}
