import Foundation
import GRDB

/// Reads and writes of the `queue` table — the one owner of its SQL; every function runs
/// inside the caller's transaction. State changes go through ``transition(_:seq:in:)`` and
/// the functions named for a ``QueueTransition``, which touch only an entry in one of the
/// transition's source states.
enum QueueTable {
    static let columns = """
        seq, collection, object_id, kind, base_version, idempotency_key, attempts, last_error, \
        status, response_body, state, created_at, not_before, sent_rev, sent_data
        """

    /// An entry from a row whose first columns are ``columns``, in that order (read by index:
    /// a flush reads a page of entries per batch).
    static func entry(_ row: Row) throws -> QueueEntry {
        let kindName: String = row[3]
        let stateName: String = row[10]
        guard let kind = QueueEntry.Kind(rawValue: kindName), let state = QueueEntry.State(rawValue: stateName) else {
            throw OfflineStoreError(.corrupted, "queue entry \(row[0] as Int64) has an unknown kind or state")
        }
        let notBefore: Double? = row[12]
        return QueueEntry(
            seq: row[0], collection: row[1], objectID: row[2], kind: kind,
            baseVersion: row[4], idempotencyKey: row[5], attempts: row[6],
            lastError: row[7], status: row[8], responseBody: row[9], state: state,
            createdAt: Date(timeIntervalSince1970: row[11]),
            notBefore: notBefore.map { Date(timeIntervalSince1970: $0) },
            sentRev: row[13], sentData: row[14])
    }

    /// Which entries a read selects; every selection is in FIFO order.
    enum Selection: Sendable, Equatable {
        /// One collection's entries, or one object's (nil: every collection's, every object's).
        case matching(collection: String?, id: String?)
        /// The entry with this sequence number.
        case seq(Int64)
        /// Failed entries, optionally of one collection only.
        case failed(collection: String?)
        /// Entries that are not failed themselves but wait behind a failed entry or a conflict of their object.
        case heldBack
        /// Sent creates of a collection whose answer never came (for own-write recognition).
        case unansweredCreates(collection: String)
    }

    /// The entries `selection` selects, in FIFO order.
    static func entries(_ db: Database, _ selection: Selection) throws -> [QueueEntry] {
        switch selection {
        case .matching(let c?, let id?): try entries(db, collection: c, id: id)
        case .matching(let c?, nil): try fetch(db, where: "collection = ?", arguments: [c])
        case .matching(nil, _): try fetch(db)
        case .seq(let seq): try fetch(db, where: "seq = ?", arguments: [seq])
        case .failed(let c?): try fetch(db, where: "state = 'failed' AND collection = ?", arguments: [c])
        case .failed(nil): try fetch(db, where: "state = 'failed'")
        case .heldBack: try fetch(db, where: heldBackClause)
        case .unansweredCreates(let c):
            try fetch(db, where: "collection = ? AND kind = 'create' AND attempts > 0 AND state != 'failed' AND sent_data IS NOT NULL",
                      arguments: [c])
        }
    }

    private static func fetch(_ db: Database, where clause: String = "1", arguments: StatementArguments = []) throws -> [QueueEntry] {
        try Row.fetchAll(db, sql: "SELECT \(columns) FROM queue WHERE \(clause) ORDER BY seq", arguments: arguments)
            .map(entry)
    }

    static func entries(_ db: Database, collection: String, id: String) throws -> [QueueEntry] {
        let statement = try db.cachedStatement(
            sql: "SELECT \(columns) FROM queue WHERE collection = ? AND object_id = ? ORDER BY seq")
        return try Row.fetchAll(statement, arguments: [collection, id]).map(entry)
    }

    static func latest(_ db: Database, collection: String, id: String) throws -> QueueEntry? {
        let statement = try db.cachedStatement(
            sql: "SELECT \(columns) FROM queue WHERE collection = ? AND object_id = ? ORDER BY seq DESC LIMIT 1")
        return try Row.fetchOne(statement, arguments: [collection, id]).map(entry)
    }

    /// What coalescing needs of an object's last entry (``lastEntry(_:collection:id:on:)``).
    struct LastEntry: Sendable, Equatable {
        var seq: Int64
        var kind: QueueEntry.Kind
        var state: QueueEntry.State
        var attempts: Int
    }

    /// The object's last entry as coalescing needs it, read by column index: a full
    /// ``QueueEntry`` (13 columns, names looked up, dates built) cost a sixth of a bulk edit;
    /// ``HotStatement`` steps it without GRDB's `Row`.
    ///
    /// - Throws: ``OfflineStoreError/Code/corrupted`` for an entry of an unknown kind or state.
    static func lastEntry(_ db: Database, collection: String, id: String, on writer: WriterStatements?) throws -> LastEntry? {
        let statement = try HotStatement.read(db, .lastQueueEntry, on: writer)
        try statement.bind(1, collection)
        try statement.bind(2, id)
        guard let (seq, kindName, stateName, attempts) = try statement.first({ row in
            (row.int(0), row.text(1) ?? "", row.text(2) ?? "", Int(row.int(3)))
        }) else { return nil }
        guard let kind = QueueEntry.Kind(rawValue: kindName), let state = QueueEntry.State(rawValue: stateName) else {
            throw OfflineStoreError(.corrupted, "queue entry \(seq) has an unknown kind or state")
        }
        return LastEntry(seq: seq, kind: kind, state: state, attempts: attempts)
    }

    @discardableResult
    static func append(_ db: Database, collection: String, id: String, kind: QueueEntry.Kind,
                       baseVersion: String?, now: Date, on writer: WriterStatements? = nil) throws -> Int64 {
        let statement = try HotStatement.write(db, .appendQueueEntry, on: writer)
        try statement.bind(1, collection)
        try statement.bind(2, id)
        try statement.bind(3, kind.rawValue)
        try statement.bind(4, baseVersion)
        try statement.bind(5, UUID.random().lowercaseString)
        try statement.bind(6, now.timeIntervalSince1970)
        try statement.execute()
        return statement.lastInsertedRowID
    }

    static func setKind(_ db: Database, seq: Int64, kind: QueueEntry.Kind) throws {
        try db.cachedStatement(sql: "UPDATE queue SET kind = ? WHERE seq = ?").execute(arguments: [kind.rawValue, seq])
    }

    static func remove(_ db: Database, seq: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM queue WHERE seq = ?").execute(arguments: [seq])
    }

    static func removeAll(_ db: Database, collection: String, id: String) throws {
        try db.execute(sql: "DELETE FROM queue WHERE collection = ? AND object_id = ?", arguments: [collection, id])
    }

    /// Points every later entry of the object at a new server version (after an earlier one was applied).
    static func rebase(_ db: Database, collection: String, id: String, onto version: String?) throws {
        try db.execute(sql: "UPDATE queue SET base_version = ? WHERE collection = ? AND object_id = ?",
                       arguments: [version, collection, id])
    }

    // MARK: - Lifecycle (QueueTransition)

    /// The SQL condition on `state` that admits exactly the transition's sources
    /// (``QueueTransition/sources``; constant text, no input).
    static func condition(_ transition: QueueTransition) -> String {
        "state IN (" + QueueEntry.State.allCases.filter(transition.sources.contains).map { "'\($0.rawValue)'" }
            .joined(separator: ", ") + ")"
    }

    /// The state a transition that keeps the entry leads to (``QueueTransition/target``), as SQL text.
    static func target(_ transition: QueueTransition) -> String {
        guard let state = transition.target else { preconditionFailure("\(transition) removes the entry") }
        return "'\(state.rawValue)'"
    }

    /// Marks an entry in flight with what it carries; false when it was not pending.
    @discardableResult
    static func send(_ seq: Int64, sentRev: Int64, sentData: String?, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: """
            UPDATE queue SET state = \(target(.send)), attempts = attempts + 1, sent_rev = ?, sent_data = ?
            WHERE seq = ? AND \(condition(.send))
            """).execute(arguments: [sentRev, sentData, seq])
        return db.changesCount > 0
    }

    /// Returns an entry marked in flight and never sent to pending as it was before
    /// ``send(_:sentRev:sentData:in:)``: its attempts back to `attempts`; a first send
    /// (`firstSend`: it carried no payload) gets its revision back to `sentRev` and no payload,
    /// a resend keeps the ones it has. False when it was not in flight after exactly that one
    /// mark; it is then left as it is.
    @discardableResult
    static func withdraw(_ seq: Int64, attempts: Int, firstSend: Bool, sentRev: Int64?, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: """
            UPDATE queue SET state = \(target(.withdraw)), attempts = ?,
            sent_rev = CASE WHEN ? THEN ? ELSE sent_rev END, sent_data = CASE WHEN ? THEN NULL ELSE sent_data END
            WHERE seq = ? AND attempts = ? AND \(condition(.withdraw))
            """).execute(arguments: [attempts, firstSend, sentRev, firstSend, seq, attempts + 1])
        return db.changesCount > 0
    }

    /// Puts an in-flight entry back to pending, keeping the error that stopped it.
    static func release(_ seq: Int64, error: OfflineStoreError?, notBefore: Date?, in db: Database) throws {
        try db.execute(sql: """
            UPDATE queue SET state = \(target(.release)), last_error = ?, status = ?, not_before = ?
            WHERE seq = ? AND \(condition(.release))
            """, arguments: [error?.description, error?.status, notBefore?.timeIntervalSince1970, seq])
    }

    /// A conflict answer: the entry waits again while the conflict is settled.
    static func requeue(_ seq: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE queue SET state = \(target(.requeue)) WHERE seq = ? AND \(condition(.requeue))",
                       arguments: [seq])
    }

    /// Every in-flight entry of an object back to pending (its conflict is kept for the app).
    static func requeueAll(_ db: Database, collection: String, id: String) throws {
        try db.execute(sql: """
            UPDATE queue SET state = \(target(.requeue)) WHERE collection = ? AND object_id = ? AND \(condition(.requeue))
            """, arguments: [collection, id])
    }

    /// In-flight entries left by a crash go back to pending; they are resent with the
    /// payload they were sent with, and the server's preconditions recognise a write that
    /// was already applied.
    static func recoverInFlight(_ db: Database) throws {
        try db.execute(sql: "UPDATE queue SET state = \(target(.recover)) WHERE \(condition(.recover))")
    }

    /// The server rejected the entry.
    static func reject(_ seq: Int64, status: Int, body: String?, message: String, in db: Database) throws {
        try db.execute(sql: """
            UPDATE queue SET state = \(target(.reject)), status = ?, response_body = ?, last_error = ?
            WHERE seq = ? AND \(condition(.reject))
            """, arguments: [status, body, message, seq])
    }

    /// Read access to the collection was withdrawn and its policy purges: every pending
    /// entry (of an object not in conflict, whose conflict stays for the app) becomes a
    /// forbidden failed entry (status 403) and its object is marked failed.
    /// - Returns: the sequence numbers of the entries that failed, oldest first.
    static func forbidPending(_ db: Database, collection: String, message: String) throws -> [Int64] {
        let forbidden = """
            collection = ? AND \(condition(.forbid)) AND NOT EXISTS (SELECT 1 FROM objects
                WHERE objects.collection = queue.collection AND objects.id = queue.object_id AND objects.state = 'conflicted')
            """
        let seqs = try Int64.fetchAll(db, sql: "SELECT seq FROM queue WHERE \(forbidden) ORDER BY seq", arguments: [collection])
        try db.execute(sql: """
            UPDATE queue SET state = \(target(.forbid)), status = 403, response_body = NULL, last_error = ?
            WHERE \(forbidden)
            """, arguments: [message, collection])
        try db.execute(sql: """
            UPDATE objects SET state = 'failed' WHERE collection = ? AND state NOT IN ('conflicted', 'failed')
            AND EXISTS (SELECT 1 FROM queue WHERE queue.collection = objects.collection AND queue.object_id = objects.id
                        AND queue.state = 'failed')
            """, arguments: [collection])
        return seqs
    }

    /// A rejected entry is sent again, with the object's current local copy.
    static func retry(_ seq: Int64, in db: Database) throws {
        try db.execute(sql: """
            UPDATE queue SET state = \(target(.retry)), sent_data = NULL, sent_rev = NULL, not_before = NULL
            WHERE seq = ? AND \(condition(.retry))
            """, arguments: [seq])
    }

    /// A settled conflict resends the local copy in the entry's place, as a new operation.
    static func resend(_ seq: Int64, kind: QueueEntry.Kind, baseVersion: String?, in db: Database) throws {
        try db.execute(sql: """
            UPDATE queue SET kind = ?, base_version = ?, state = \(target(.resend)), last_error = NULL, status = NULL, sent_data = NULL,
            response_body = NULL, attempts = 0, idempotency_key = ? WHERE seq = ? AND \(condition(.resend))
            """, arguments: [kind.rawValue, baseVersion, UUID().uuidString.lowercased(), seq])
    }

    // MARK: - Reads for the flush and the refresh

    /// What is left after a run: conflicted objects, failed entries, entries still to send, held-back entries.
    static func leftCounts(_ db: Database) throws -> (conflicts: Int, failed: Int, pending: Int, heldBack: Int) {
        (try Int.fetchOne(db, sql: "SELECT count(*) FROM objects WHERE state = 'conflicted'") ?? 0,
         try Int.fetchOne(db, sql: "SELECT count(*) FROM queue WHERE state = 'failed'") ?? 0,
         try Int.fetchOne(db, sql: "SELECT count(*) FROM queue WHERE state != 'failed'") ?? 0,
         try heldBackCount(db))
    }

    /// Entries that are not failed themselves but wait behind a failed entry or a conflict of their object.
    private static let heldBackClause = """
        state != 'failed' AND (EXISTS (SELECT 1 FROM queue f WHERE f.collection = queue.collection \
        AND f.object_id = queue.object_id AND f.state = 'failed' AND f.seq < queue.seq) \
        OR EXISTS (SELECT 1 FROM objects o WHERE o.collection = queue.collection AND o.id = queue.object_id \
        AND o.state = 'conflicted'))
        """

    /// How many entries are held back, store-wide.
    static func heldBackCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM queue WHERE \(heldBackClause)") ?? 0
    }

    /// Pending entries of a collection that are not held back (the rest of a push's progress total).
    static func waitingCount(_ db: Database, collection: String) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT count(*) FROM queue WHERE collection = ? AND state = 'pending' AND NOT (\(heldBackClause))
            """, arguments: [collection]) ?? 0
    }

    /// Entries whose retry delay has not come at `now`.
    static func notDue(_ db: Database, at now: Date) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT seq FROM queue WHERE not_before > ?", arguments: [now.timeIntervalSince1970])
    }

    /// Records why a held entry waits (its `last_error`), so the queue shows it.
    static func recordHold(_ seq: Int64, reason: String, in db: Database) throws {
        try db.execute(sql: "UPDATE queue SET last_error = ? WHERE seq = ? AND last_error IS NOT ?", arguments: [reason, seq, reason])
    }

    /// The entry with sequence number `seq`.
    static func entry(_ db: Database, seq: Int64) throws -> QueueEntry? {
        try entries(db, .seq(seq)).first
    }

    // MARK: - Re-keying

    /// Points an object's entries at its new id.
    static func moveObject(_ db: Database, collection: String, from oldID: String, to newID: String) throws {
        try db.execute(sql: "UPDATE queue SET object_id = ? WHERE collection = ? AND object_id = ?", arguments: [newID, collection, oldID])
    }

    /// Replaces the payload an entry was sent with.
    static func setSentData(_ db: Database, seq: Int64, text: String) throws {
        try db.execute(sql: "UPDATE queue SET sent_data = ? WHERE seq = ?", arguments: [text, seq])
    }

    /// Puts back entries exactly as they were (undoing an online-only edit).
    static func restore(_ entries: [QueueEntry], in db: Database) throws {
        for e in entries {
            try db.execute(sql: """
                INSERT INTO queue(seq, collection, object_id, kind, base_version, idempotency_key, attempts, last_error,
                status, response_body, state, sent_rev, sent_data, created_at, not_before) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                """, arguments: [e.seq, e.collection, e.objectID, e.kind.rawValue, e.baseVersion, e.idempotencyKey,
                                 e.attempts, e.lastError, e.status, e.responseBody, e.state.rawValue, e.sentRev, e.sentData,
                                 e.createdAt.timeIntervalSince1970, e.notBefore?.timeIntervalSince1970])
        }
    }

    /// Sets an entry's lifecycle (state, attempts, last error and rejection, what it was sent
    /// with, retry time) to `entry`'s, leaving what the edit decided (kind, base version).
    static func restoreLifecycle(of e: QueueEntry, in db: Database) throws {
        try db.execute(sql: """
            UPDATE queue SET attempts = ?, last_error = ?, status = ?, response_body = ?, state = ?, sent_rev = ?,
            sent_data = ?, not_before = ? WHERE seq = ?
            """, arguments: [e.attempts, e.lastError, e.status, e.responseBody, e.state.rawValue, e.sentRev, e.sentData,
                             e.notBefore?.timeIntervalSince1970, e.seq])
    }

    // MARK: - Counts and resets

    /// How many entries the queue holds, optionally only those in one state.
    static func count(_ db: Database, state: QueueEntry.State? = nil) throws -> Int {
        if let state {
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM queue WHERE state = ?", arguments: [state.rawValue]) ?? 0
        }
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM queue") ?? 0
    }
}
