import GRDB

/// The store file's tables, created and upgraded by GRDB's migrator.
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE collections (
                    name TEXT PRIMARY KEY NOT NULL,
                    descriptor TEXT NOT NULL,
                    cursor TEXT
                );
                CREATE TABLE objects (
                    collection TEXT NOT NULL,
                    id TEXT NOT NULL,
                    persistent TEXT,
                    local TEXT,
                    dirty INTEGER NOT NULL DEFAULT 0,
                    base TEXT,
                    base_version TEXT,
                    server_version TEXT,
                    state TEXT NOT NULL,
                    local_rev INTEGER NOT NULL DEFAULT 0,
                    doc TEXT GENERATED ALWAYS AS (CASE WHEN dirty THEN local ELSE persistent END) VIRTUAL,
                    PRIMARY KEY (collection, id)
                ) WITHOUT ROWID;
                CREATE INDEX objects_state ON objects(collection, state);
                CREATE TABLE queue (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    collection TEXT NOT NULL,
                    object_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    base_version TEXT,
                    idempotency_key TEXT NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    status INTEGER,
                    response_body TEXT,
                    state TEXT NOT NULL,
                    sent_rev INTEGER,
                    sent_data TEXT,
                    created_at REAL NOT NULL,
                    not_before REAL
                );
                CREATE INDEX queue_object ON queue(collection, object_id, seq);
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT
                );
                """)
        }
        migrator.registerMigration("v2-fetch") { db in
            // Last use and pinning of objects (store size limit, LRU eviction), and blob attachments.
            try db.execute(sql: """
                CREATE TABLE object_usage (
                    collection TEXT NOT NULL,
                    id TEXT NOT NULL,
                    used_at REAL NOT NULL DEFAULT 0,
                    pinned INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (collection, id)
                ) WITHOUT ROWID;
                CREATE TABLE blobs (
                    collection TEXT NOT NULL,
                    object_id TEXT NOT NULL,
                    field TEXT NOT NULL,
                    file TEXT,
                    size INTEGER NOT NULL DEFAULT 0,
                    sha256 TEXT,
                    mimetype TEXT NOT NULL DEFAULT 'application/octet-stream',
                    state TEXT NOT NULL,
                    location TEXT,
                    PRIMARY KEY (collection, object_id, field)
                ) WITHOUT ROWID;
                CREATE INDEX blobs_state ON blobs(state);
                """)
        }
        migrator.registerMigration("v2-rest") { db in
            // Temporary ids of objects re-keyed to a server-assigned id (REST backends).
            try db.execute(sql: """
                CREATE TABLE id_aliases (
                    collection TEXT NOT NULL,
                    temporary_id TEXT NOT NULL,
                    server_id TEXT NOT NULL,
                    PRIMARY KEY (collection, temporary_id)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v3-blobs") { db in
            // Which version of a blob a row holds, and the upload's retry state (BLOB attributes).
            try db.execute(sql: """
                ALTER TABLE blobs ADD COLUMN blob_id TEXT;
                ALTER TABLE blobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE blobs ADD COLUMN last_error TEXT;
                ALTER TABLE blobs ADD COLUMN status INTEGER;
                """)
        }
        migrator.registerMigration("v4-scopes") { db in
            // What a changed sync scope still has to pull once (ScopeCatchUp, JSON), until a refresh did it.
            try db.execute(sql: "ALTER TABLE collections ADD COLUMN scope_catchup TEXT")
        }
        migrator.registerMigration("v5-late-writes") { db in
            // Creates whose answer was lost, watched for a late delivery (LateDeliveryRule).
            try db.execute(sql: LateDeliveryTable.schema)
        }
        migrator.registerMigration("v6-access") { db in
            // What the user may do in the collection on the server (CollectionAccess), as the last
            // preparation found; NULL until a sync prepared it (treated as read-write).
            try db.execute(sql: "ALTER TABLE collections ADD COLUMN access TEXT")
        }
        migrator.registerMigration("v7-schema-versions") { db in
            // The schema version each collection's stored copies are at (model evolution, CollectionVersions).
            try db.execute(sql: "ALTER TABLE collections ADD COLUMN schema_version INTEGER NOT NULL DEFAULT 1")
        }
        return migrator
    }
}

extension StoreSchema {
    /// How many schema objects the file holds; reading it proves the file is a database.
    static func tableCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
    }
}
