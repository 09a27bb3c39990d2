import Foundation
@testable import OfflineStore
import OfflineStoreTesting
import Testing

/// Model evolution's pure parts (Docs/Models.md, "Evolving a model"): each step on JSON
/// records, the chain's order and versions, the registration's decision, the upgrade of
/// records that arrive from the server. No SQLite, no server.
@Suite("Model migrations (pure)")
struct ModelMigrationTests {
    struct Failed: Error {}

    /// One step on one record: what it leaves.
    @Test(arguments: [
        (ModelMigration.renameField("name", to: "title", in: 2), ["id": "a", "name": "x"], ["id": "a", "title": "x"]),
        (.renameField("name", to: "title", in: 2), ["id": "a", "title": "y"], ["id": "a", "title": "y"]),             // already new
        (.renameField("name", to: "title", in: 2), ["id": "a", "name": "x", "title": "y"], ["id": "a", "title": "y"]), // the new name wins
        (.renameField("name", to: "title", in: 2), ["id": "a", "name": .null], ["id": "a", "title": .null]),
        (.addField("priority", default: 0, in: 2), ["id": "a"], ["id": "a", "priority": 0]),
        (.addField("priority", default: 0, in: 2), ["id": "a", "priority": 5], ["id": "a", "priority": 5]),
        (.addField("priority", default: 0, in: 2), ["id": "a", "priority": .null], ["id": "a", "priority": 0]),     // a REST null
        (.removeField("color", in: 2), ["id": "a", "color": "red"], ["id": "a"]),
        (.removeField("color", in: 2), ["id": "a"], ["id": "a"]),
        (.transform(in: 2) { if $0["tags"] == nil { $0["tags"] = ["imported"] } }, ["id": "a"], ["id": "a", "tags": ["imported"]]),
        (.transform(in: 2) { if $0["tags"] == nil { $0["tags"] = ["imported"] } }, ["id": "a", "tags": []], ["id": "a", "tags": []]),
    ] as [(ModelMigration, JSONValue, JSONValue)])
    func aStepLeavesTheRecordInItsNewShape(_ step: ModelMigration, _ record: JSONValue, _ expected: JSONValue) throws {
        var value = record
        try step.migrate(&value)
        #expect(value == expected, "\(step)")
    }

    static let chain = MigrationChain(version: 3, migrations: [
        .addField("priority", default: 0, in: 3),
        .renameField("name", to: "title", in: 2),
        .transform(in: 3) { record in
            if record["title"] == "poison" { throw Failed() }
            if record["tags"] == nil { record["tags"] = ["imported"] }
        },
    ])

    @Test func stepsRunByVersionThenInDeclaredOrder() {
        #expect(Self.chain.steps.map(\.version) == [2, 3, 3])
        #expect(Self.chain.steps.map(\.description) == ["renameField(\"name\", to: \"title\", in: 2)",
                                                         "addField(\"priority\", default: 0, in: 3)", "transform(in: 3)"])
    }

    /// A stored record at a known version goes through the later steps only; a server
    /// record (version unknown) through all of them, which leave a current record as it is.
    @Test(arguments: [
        (["id": "a", "name": "x"], 1, ["id": "a", "title": "x", "priority": 0, "tags": ["imported"]]),
        (["id": "a", "title": "x"], 2, ["id": "a", "title": "x", "priority": 0, "tags": ["imported"]]),
        (["id": "a", "name": "x"], 2, ["id": "a", "name": "x", "priority": 0, "tags": ["imported"]]),  // version 2 has no name left to rename
        (["id": "a", "title": "x", "priority": 1, "tags": []], 3, nil),
        (["id": "a", "name": "x"], nil, ["id": "a", "title": "x", "priority": 0, "tags": ["imported"]]),
        (["id": "a", "title": "x", "priority": 1, "tags": []], nil, nil),                                  // current: unchanged
    ] as [(JSONValue, Int?, JSONValue?)])
    func aRecordIsUpgradedFromItsVersion(_ record: JSONValue, _ stored: Int?, _ expected: JSONValue?) throws {
        #expect(try Self.chain.upgrade(record, from: stored, collection: "todos") == expected)
    }

    @Test func aThrowingStepNamesTheRecordAndTheVersion() throws {
        let error = #expect(throws: MigrationFailure.self) {
            try Self.chain.upgrade(["id": "p", "name": "poison"], from: 1, collection: "todos")
        }
        #expect(error?.id == "p" && error?.version == 3 && error?.underlying is Failed)
        #expect(error?.description.hasPrefix("todos/p: the migration to version 3 failed") == true)
        #expect(Self.chain.failure(of: ["id": "p", "name": "poison"], collection: "todos")?.id == "p")
        #expect(Self.chain.failure(of: ["id": "q", "name": "fine"], collection: "todos") == nil)
        guard case .dataCorrupted(let context)? = error?.decodingError else { Issue.record("not dataCorrupted"); return }
        #expect(context.underlyingError is MigrationFailure)
    }

    @Test func aTransformMayNotChangeTheIDOrTheKind() {
        let renaming = MigrationChain(version: 2, migrations: [.transform(in: 2) { $0["id"] = "other" }])
        #expect(throws: MigrationFailure.self) { try renaming.upgrade(["id": "a"], from: nil, collection: "c") }
        let flattening = MigrationChain(version: 2, migrations: [.transform(in: 2) { $0 = "text" }])
        #expect(throws: MigrationFailure.self) { try flattening.upgrade(["id": "a"], from: nil, collection: "c") }
    }

    /// Declarations registration refuses, with `configuration`.
    @Test(arguments: [
        (0, [ModelMigration]()),
        (2, [.renameField("a", to: "b", in: 1)]),
        (2, [.addField("a", default: 1, in: 3)]),
        (1, [.addField("a", default: 1, in: 2)]),
        (2, [.renameField("id", to: "key", in: 2)]),
        (2, [.removeField("", in: 2)]),
        // A name an earlier step took away, brought back: the records of the newer shape lose it
        // (found by the migration fuzz target), in any order of declaration.
        (3, [.renameField("a", to: "b", in: 2), .renameField("c", to: "a", in: 3)]),
        (3, [.renameField("c", to: "a", in: 3), .renameField("a", to: "b", in: 2)]),
        (3, [.removeField("a", in: 2), .addField("a", default: 0, in: 3)]),
        (2, [.renameField("a", to: "b", in: 2), .addField("a", default: 0, in: 2)]),
        (3, [.removeField("a", in: 2), .renameField("c", to: "a", in: 3)]),
        (3, [.renameField("a", to: "b", in: 2), .renameField("b", to: "a", in: 3)]),
        (2, [.renameField("a", to: "a", in: 2)]),
    ] as [(Int, [ModelMigration])])
    func badDeclarationsAreConfigurationErrors(_ version: Int, _ migrations: [ModelMigration]) {
        let error = #expect(throws: OfflineStoreError.self) {
            try MigrationChain.validate(version: version, migrations: migrations, collection: "todos")
        }
        #expect(error?.code == .configuration)
    }

    @Test func goodDeclarationsPass() throws {
        try MigrationChain.validate(version: 1, migrations: [], collection: "todos")
        try MigrationChain.validate(version: 3, migrations: Self.chain.steps, collection: "todos")
        // A field added then renamed or removed, renames in a row, a name used again as an old name.
        try MigrationChain.validate(version: 4, migrations: [
            .addField("a", default: 0, in: 2), .renameField("a", to: "b", in: 3), .renameField("b", to: "c", in: 4),
            .removeField("c", in: 4), .renameField("a", to: "d", in: 4),
        ], collection: "todos")
    }

    /// Why a chain may not bring a name back: a record of the newer shape, arriving from the
    /// server, goes through the earlier step too and loses the field there.
    @Test func aNameBroughtBackWouldLoseTheNewerRecordsField() throws {
        let chain = MigrationChain(version: 3, migrations: [.renameField("a", to: "b", in: 2), .renameField("c", to: "a", in: 3)])
        #expect(try chain.upgrade(["id": "x", "a": 2, "b": 1], from: nil, collection: "todos") == ["id": "x", "b": 1])
    }

    /// What registering at a version does, from the recorded one.
    @Test(arguments: [
        (nil, 1, SchemaVersionRule.record),
        (nil, 3, .record),
        (1, 1, .record),
        (3, 3, .record),
        (1, 3, .migrate(from: 1, to: 3)),
        (2, 3, .migrate(from: 2, to: 3)),
        (3, 1, .refuse(stored: 3, registered: 1)),
    ] as [(Int?, Int, SchemaVersionRule)])
    func theRegistrationDecides(_ stored: Int?, _ registered: Int, _ expected: SchemaVersionRule) {
        #expect(SchemaVersionRule.decide(stored: stored, registered: registered) == expected)
    }

    @Test func theDowngradeErrorSaysWhatHappened() {
        let error = SchemaVersionRule.downgradeError(collection: "todos", stored: 3, registered: 1)
        #expect(error.code == .modelTooNew)
        #expect(error.message.contains("version 3") && error.message.contains("version 1"))
    }

    /// Records from the server: upgraded when the chain changes them, kept (canonical text
    /// and all) when it does not, kept as they came when a step throws.
    @Test func incomingRecordsAreUpgradedOrKept() throws {
        var descriptor = CollectionDescriptor("todos")
        descriptor.schemaVersion = 3
        descriptor.migrations = Self.chain.steps
        let old = RemoteChange(id: "a", record: ["id": "a", "name": "x"], version: "1")
        let current = try RemoteChange(id: "b", recordText: Array(#"{"id":"b","priority":1,"tags":[],"title":"y"}"#.utf8), version: "2")
        let poison = RemoteChange(id: "p", record: ["id": "p", "name": "poison"], version: "3")
        let gone = RemoteChange(id: "g", record: nil, version: "4")
        let upgraded = IncomingRecords.upgrade([old, current, poison, gone], of: descriptor)
        #expect(upgraded[0].record == ["id": "a", "title": "x", "priority": 0, "tags": ["imported"]] && upgraded[0].version == "1")
        #expect(upgraded[1].canonicalText != nil && upgraded[1] == current)
        #expect(upgraded[2] == poison && upgraded[3] == gone)

        let outcomes = IncomingRecords.upgrade([.conflict(server: ["id": "a", "name": "x"], version: "5"),
                                                .applied(record: nil, version: "6"), .rejected(status: 400, body: nil)], of: descriptor)
        #expect(outcomes == [.conflict(server: ["id": "a", "title": "x", "priority": 0, "tags": ["imported"]], version: "5"),
                             .applied(record: nil, version: "6"), .rejected(status: 400, body: nil)])
        // Without migrations nothing is touched.
        #expect(IncomingRecords.upgrade([old], of: CollectionDescriptor("todos")) == [old])
    }
}
