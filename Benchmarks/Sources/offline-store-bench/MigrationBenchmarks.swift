import Foundation
import OfflineStore

/// A stored model migration: 100,000 synced objects whose `title` is renamed to `label`
/// and which gain `priority` = 0, by registering schema version 2 (every copy parsed, run
/// through the steps, written back, in one transaction), against the same change done by
/// one SQL `UPDATE … json_set/json_remove` on a copy of the same store file in the same run.
/// The SQL baseline is the floor for these two steps; it cannot run a `transform`.
enum MigrationBenchmarks {
    static var versionTwo: CollectionDescriptor {
        var items = CollectionDescriptor(Fixtures.collection)
        items.schemaVersion = 2
        items.migrations = [.renameField("title", to: "label", in: 2), .addField("priority", default: 0, in: 2)]
        return items
    }

    static func storedMigration(count: Int, rounds: Int) async throws -> BenchResult {
        let template = try TemporaryDirectory("migration-template")
        defer { template.remove() }
        let original = template.file("v1.sqlite")
        do {
            let store = try ObjectStore(path: original, backend: PagedBackend(objects: count, pageSize: RefreshBenchmarks.pageSize))
            try store.register(CollectionDescriptor(Fixtures.collection))
            try await store.refresh()
            try store.close()   // checkpoints the WAL: the copies below are the whole store
        }
        let comparison = try await Comparison.run(rounds: rounds, label: "migration", ours: { path in
            try FileManager.default.copyItem(atPath: original, toPath: path)
            let store = try ObjectStore(path: path)
            defer { try? store.close() }
            let seconds = try Timing.seconds { try store.register(versionTwo) }
            let sample = try store.collection(Fixtures.collection).find(Fixtures.id(7))
            guard sample?["label"] == "Item number 7", sample?["title"] == nil, sample?["priority"] == 0 else {
                throw BenchError("the migration left \(String(describing: sample))")
            }
            return seconds
        }, baseline: { path in
            try FileManager.default.copyItem(atPath: original, toPath: path)
            let db = try RawSQLite(path: path)
            return try Timing.seconds {
                try db.execute("BEGIN IMMEDIATE")
                try db.execute("""
                    UPDATE objects SET persistent = json_set(json_remove(persistent, '$.title'),
                        '$.label', json_extract(persistent, '$.title'), '$.priority', 0)
                    WHERE collection = '\(Fixtures.collection)' AND persistent IS NOT NULL
                    """)
                try db.execute("UPDATE collections SET schema_version = 2 WHERE name = '\(Fixtures.collection)'")
                try db.execute("COMMIT")
            }
        })
        return comparison.row("stored migration of \(Format.grouped(count)) objects (rename + added field) vs one SQL UPDATE json_set/json_remove",
                              count: count, unit: "objects", minimumRatio: 0.2)
    }
}
