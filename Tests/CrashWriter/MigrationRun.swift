// crash-writer migrate <store-path>: registers the collection "items" at schema version 3
// over a store at version 1, for MigrationKillTests (kill -9 during a stored migration).
//
// The migration renames `name` to `title` (version 2), adds `priority` with 0 and `tags`
// (version 3); its transform prints `migrating <id>` for every copy it rewrites, unbuffered,
// so the parent can kill the process inside the migration's transaction at a line it picks.
// Prints `migrated <version>` after the registration returned. Exit status 0, or 1 when
// the registration fails (the message goes to standard error).

import Foundation
import OfflineStore

enum MigrationRun {
    /// The descriptor of the migrated collection; the test registers the same one.
    static func descriptor(announcing: Bool) -> CollectionDescriptor {
        var items = CollectionDescriptor("items")
        items.schemaVersion = 3
        items.migrations = [
            .renameField("name", to: "title", in: 2),
            .addField("priority", default: 0, in: 3),
            .transform(in: 3) { record in
                if announcing, let id = record["id"]?.stringValue { say("migrating \(id)") }
                if record["tags"] == nil { record["tags"] = ["imported"] }
            },
        ]
        return items
    }

    static func run(_ arguments: [String]) -> Never {
        guard arguments.count == 1 else { fail("usage: crash-writer migrate <store-path>", status: 64) }
        do {
            let store = try ObjectStore(path: arguments[0])
            try store.register(descriptor(announcing: true))
            say("migrated \(try store.descriptor(of: "items").schemaVersion)")
            try store.close()
            exit(0)
        } catch {
            fail("\(error)")
        }
    }
}
