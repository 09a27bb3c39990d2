import GRDB
import Testing
@testable import OfflineStore

/// Every write is atomic: the object row and its queue entry commit together or not at all (SPEC §2, §11).
@Suite("ObjectStore write atomicity")
struct ObjectStoreAtomicityTests {
    struct InjectedFault: Error {}

    /// Makes writes of chosen objects fail after their row is written and before their queue entry is.
    final class Fault: Sendable {
        private let failing = Locked<Set<String>>([])

        /// From now on, writes of these ids fail.
        func arm(_ ids: String...) { failing.withLock { $0.formUnion(ids) } }

        var configuration: ObjectStore.Configuration {
            .with { configuration in
                configuration.faults.afterObjectWrite = { _, id in
                    if self.failing.withLock({ $0.contains(id) }) { throw InjectedFault() }
                }
            }
        }
    }

    static let collections = [
        CollectionDescriptor("todos"),
        CollectionDescriptor("notes"),
        CollectionDescriptor("drafts", localOnly: true),
        CollectionDescriptor("products", fields: [
            FieldSchema("name", .string, required: true),
            FieldSchema("price", .number),
        ]),
    ]

    /// Everything about an object that an edit could change: its row and its queue entries.
    struct Footprint: Equatable {
        var object: StoredObject?
        var entries: [QueueEntry]
        var rawRows: Int

        static let none = Footprint(object: nil, entries: [], rawRows: 0)
    }

    static func footprint(_ store: ObjectStore, _ collection: String, _ id: String) throws -> Footprint {
        let rawRows = try store.local.read("counting rows") { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM objects WHERE collection = ? AND id = ?",
                             arguments: [collection, id]) ?? -1
        }
        return Footprint(object: try store.collection(collection).object(id),
                         entries: try store.queueEntries(collection: collection, id: id), rawRows: rawRows)
    }

    // MARK: Schema violations

    @Test func aSchemaViolationWritesNothing() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            let products = store.collection("products")
            let error = await #expect(throws: OfflineStoreError.self) { try await products.create(["id": "p", "price": 1]) }
            #expect(error?.code == .schemaViolation)
            #expect(try Self.footprint(store, "products", "p") == .none)

            try await products.create(["id": "q", "name": "Tea", "price": 2])
            let before = try Self.footprint(store, "products", "q")
            let edits: [@Sendable () async throws -> Void] = [
                { try await products.patch("q", ["price": "free"]) },
                { try await products.patch("q", ["name": .null]) },
                { try await products.replace("q", with: ["price": 3]) },
                { try await products.save(["id": "q", "colour": "red", "name": "x"]) },
            ]
            for edit in edits {
                let error = await #expect(throws: OfflineStoreError.self) { try await edit() }
                #expect(error?.code == .schemaViolation)
                #expect(try Self.footprint(store, "products", "q") == before)
            }
            #expect(try store.queueCount() == 1)
        }
    }

    // MARK: Injected failures between the row and the queue entry

    @Test func aFailureAfterTheRowWriteLeavesNoNewObject() async throws {
        let fault = Fault()
        fault.arm("boom")
        try await withTemporaryStore(configuration: fault.configuration, collections: Self.collections) { store async throws in
            let todos = store.collection("todos")
            let error = await #expect(throws: OfflineStoreError.self) { try await todos.create(["id": "boom", "n": 1]) }
            #expect(error?.code == .storage)
            #expect(try Self.footprint(store, "todos", "boom") == .none)
            await expectStoreError(.storage) { try await todos.save(["id": "boom"]) }
            #expect(try Self.footprint(store, "todos", "boom") == .none)
            await expectStoreError(.storage) { try await store.collection("drafts").create(["id": "boom"]) }
            #expect(try Self.footprint(store, "drafts", "boom") == .none)
            #expect(try store.queueCount() == 0)
            #expect(try store.isChanged() == false)
            // The store still works.
            try await todos.create(["id": "fine"])
            #expect(try store.queueCount() == 1)
        }
    }

    @Test("a failure leaves an existing object as it was", arguments: ["synced", "updated", "created", "deleted", "local"])
    func aFailureLeavesAnExistingObjectAsItWas(kind: String) async throws {
        let fault = Fault()
        try await withTemporaryStore(configuration: fault.configuration, collections: Self.collections) { store async throws in
            let collection = kind == "local" ? "drafts" : "todos"
            let objects = store.collection(collection)
            switch kind {
            case "synced":
                try store.seedSynced("todos", ["id": "x", "n": 0], version: "v1")
            case "updated":
                try store.seedSynced("todos", ["id": "x", "n": 0], version: "v1")
                try await objects.patch("x", ["n": 1])
            case "created":
                try await objects.create(["id": "x", "n": 1])
            case "deleted":
                try store.seedSynced("todos", ["id": "x", "n": 0], version: "v1")
                try await objects.destroy("x")
            default:
                try await objects.create(["id": "x", "n": 1])
            }
            try await store.collection("notes").create(["id": "other"])
            let before = try Self.footprint(store, collection, "x")
            let queueBefore = try store.queueEntries()
            fault.arm("x")

            var edits: [@Sendable () async throws -> Void] = [
                { try await objects.patch("x", ["n": 2]) },
                { try await objects.replace("x", with: ["y": 1]) },
                { try await objects.save(["id": "x", "z": 1]) },
            ]
            switch kind {
            case "deleted":
                edits = [{ try await objects.create(["id": "x", "n": 5]) }, { try await objects.save(["id": "x", "n": 6]) }]
            case "local":
                break  // a local-only delete has no queue entry to fail before
            default:
                edits += [{ try await objects.destroy("x") }, { try await objects.destroyAll(where: .equal("id", "x")) }]
            }
            for edit in edits {
                // The injected fault: as a storage error from an edit, as itself from the
                // transaction `destroyAll` runs (a block's own errors reach its caller as they are).
                await #expect { try await edit() } throws: { error in
                    error is InjectedFault || (error as? OfflineStoreError)?.code == .storage
                }
                #expect(try Self.footprint(store, collection, "x") == before)
            }
            #expect(try store.queueEntries() == queueBefore)
        }
    }

    // MARK: Transactions

    @Test("a transaction whose third edit fails leaves none of its edits", arguments: ["schema", "fault", "notFound", "invalidID"])
    func transactionFailingOnTheThirdEdit(failure: String) async throws {
        let fault = Fault()
        fault.arm("boom")
        try await withTemporaryStore(configuration: fault.configuration, collections: Self.collections) { store async throws in
            try store.seedSynced("todos", ["id": "s", "n": 0], version: "v1")
            try await store.collection("todos").create(["id": "before", "n": 0])
            let queueBefore = try store.queueEntries()
            let sBefore = try Self.footprint(store, "todos", "s")
            let beforeBefore = try Self.footprint(store, "todos", "before")

            await #expect {
                try await store.transaction { tx in
                    try tx.create(["id": "a", "n": 1], in: "todos")
                    try tx.patch("s", ["n": 1], in: "todos")
                    switch failure {
                    case "schema": try tx.create(["id": "p", "price": 1], in: "products")
                    case "fault": try tx.create(["id": "boom"], in: "notes")
                    case "notFound": try tx.patch("missing", ["n": 1], in: "todos")
                    default: try tx.create(["id": ""], in: "todos")
                    }
                    try tx.destroy("before", in: "todos")
                }
            } throws: { error in
                // The third edit's own error: a failed check as its code, the fault as itself.
                switch failure {
                case "schema": (error as? OfflineStoreError)?.code == .schemaViolation
                case "fault": error is InjectedFault
                case "notFound": (error as? OfflineStoreError)?.code == .notFound
                default: (error as? OfflineStoreError)?.code == .invalidID
                }
            }
            #expect(try Self.footprint(store, "todos", "a") == .none)
            #expect(try Self.footprint(store, "products", "p") == .none)
            #expect(try Self.footprint(store, "notes", "boom") == .none)
            #expect(try Self.footprint(store, "todos", "s") == sBefore)
            #expect(try Self.footprint(store, "todos", "before") == beforeBefore)
            #expect(try store.queueEntries() == queueBefore)
        }
    }

    /// An edit that fails a check has written nothing, so the block may catch its error and commit the rest.
    @Test func aCheckFailureCaughtInsideATransactionLeavesTheRestToCommit() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            try store.seedSynced("todos", ["id": "s", "n": 0])
            let before = try Self.footprint(store, "todos", "s")
            try await store.transaction { tx in
                try tx.create(["id": "a"], in: "todos")
                expectStoreError(.schemaViolation) { try tx.create(["id": "p"], in: "products") }
                expectStoreError(.notFound) { try tx.patch("missing", ["n": 1], in: "todos") }
                expectStoreError(.alreadyExists) { try tx.create(["id": "a"], in: "todos") }
                expectStoreError(.invalidID) { try tx.create(["id": ""], in: "todos") }
                expectStoreError(.invalidID) { try tx.replace("s", with: ["id": "other"], in: "todos") }
                try tx.create(["id": "b"], in: "todos")
                #expect(try tx.find("a", in: "todos") != nil)
            }
            #expect(try Self.footprint(store, "products", "p") == .none)
            #expect(try Self.footprint(store, "todos", "s") == before)
            #expect(try store.queueEntries().map(\.objectID) == ["a", "b"])
        }
    }

    /// Makes SQLite itself refuse the queue entry of object `boom`, after its row was written:
    /// a real storage failure in the middle of an edit (a trigger on the writer connection).
    static func failQueueEntries(of id: String, in store: ObjectStore) throws {
        try store.local.write("installing a failing trigger") { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER refuse_queue_entry BEFORE INSERT ON main.queue WHEN NEW.object_id = '\(id)'
                BEGIN SELECT RAISE(ABORT, 'injected queue failure'); END
                """)
        }
    }

    @Test func aSQLiteFailureAfterTheRowWriteLeavesNothing() async throws {
        try await withTemporaryStore(collections: Self.collections) { store async throws in
            try Self.failQueueEntries(of: "boom", in: store)
            let todos = store.collection("todos")
            let error = await #expect(throws: OfflineStoreError.self) { try await todos.create(["id": "boom", "n": 1]) }
            #expect(error?.code == .storage)
            #expect(try Self.footprint(store, "todos", "boom") == .none)
            try await todos.create(["id": "fine"])
            #expect(try store.queueEntries().map(\.objectID) == ["fine"])
        }
    }

    /// An edit that fails after writing part of itself can never commit half: whatever the
    /// block does with the error, later edits and reads throw and the whole transaction rolls back.
    @Test("an edit failing while writing rolls the whole transaction back", arguments: ["fault", "local-only", "sqlite"])
    func anEditFailingWhileWritingRollsTheTransactionBack(failure: String) async throws {
        let fault = Fault()
        try await withTemporaryStore(configuration: fault.configuration, collections: Self.collections) { store async throws in
            try store.seedSynced("todos", ["id": "s", "n": 0])
            try await store.collection("todos").create(["id": "before"])
            let queueBefore = try store.queueEntries()
            let sBefore = try Self.footprint(store, "todos", "s")
            if failure == "sqlite" { try Self.failQueueEntries(of: "boom", in: store) } else { fault.arm("boom") }
            let boomCollection = failure == "local-only" ? "drafts" : "todos"

            // Inside the block the failing edit throws a typed `storage` error for SQLite's failure,
            // as the transaction does, and the test's own error for the fault as it is.
            func expectTheFailure(_ body: () throws -> Void) {
                if failure == "sqlite" { expectStoreError(.storage) { try body() } } else { #expect(throws: InjectedFault.self) { try body() } }
            }
            let block = { (tx: LocalTransaction) throws in
                try tx.create(["id": "a"], in: "todos")
                try tx.patch("s", ["n": 1], in: "todos")
                expectTheFailure { try tx.create(["id": "boom", "n": 1], in: boomCollection) }
                // The block carries on as if nothing happened; the transaction does not.
                expectStoreError(.storage) { try tx.create(["id": "b"], in: "todos") }
                expectStoreError(.storage) { try tx.find("a", in: "todos") }
            }
            if failure == "sqlite" {
                let thrown = await expectStoreError(.storage) { try await store.transaction(block) }
                #expect(thrown?.dataFate == .notStored)
            } else {
                await #expect(throws: InjectedFault.self) { try await store.transaction(block) }
            }
            for id in ["a", "b"] { #expect(try Self.footprint(store, "todos", id) == .none) }
            #expect(try Self.footprint(store, boomCollection, "boom") == .none)
            #expect(try Self.footprint(store, "todos", "s") == sBefore)
            #expect(try store.queueEntries() == queueBefore)
            // The store still works.
            try await store.transaction { tx in try tx.create(["id": "c"], in: "todos") }
            #expect(try store.queueEntries().map(\.objectID) == ["before", "c"])
        }
    }
}
