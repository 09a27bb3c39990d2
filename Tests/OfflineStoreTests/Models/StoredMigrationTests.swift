@testable import OfflineStore
import Foundation
import Testing

/// Which migration chains are kept with a collection's definition (``StoredMigration``), and
/// that a kept chain reads back as the same steps.
@Suite("Stored migration chains")
struct StoredMigrationTests {
    @Test func aDeclarativeChainIsKeptAndReadsBackTheSame() throws {
        let steps: [ModelMigration] = [.renameField("name", to: "title", in: 2), .addField("priority", default: 0, in: 3),
                                       .removeField("legacy", in: 3)]
        var descriptor = CollectionDescriptor("todos")
        descriptor.schemaVersion = 3
        descriptor.migrations = steps
        let text = try JSONEncoder().encode(StoredDescriptor(descriptor))
        let read = try JSONDecoder().decode(StoredDescriptor.self, from: text).descriptor(named: "todos")
        #expect(read.migrations.map(\.description) == steps.map(\.description))
    }

    @Test func aChainWithATransformIsNotKeptAndNoChainLeavesTheOldDefinitionAsItWas() throws {
        var descriptor = CollectionDescriptor("todos")
        descriptor.schemaVersion = 2
        descriptor.migrations = [.renameField("name", to: "title", in: 2), .transform(in: 2) { _ in }]
        #expect(StoredDescriptor(descriptor).migrations == nil)
        descriptor.migrations = []
        let text = String(decoding: try JSONEncoder().encode(StoredDescriptor(descriptor)), as: UTF8.self)
        #expect(!text.contains("migrations"))
    }

    @Test func aKeptStepThatNamesNothingIsDropped() {
        let empty = StoredMigration(.removeField("x", in: 2)).map { var step = $0; step.remove = nil; return step }
        #expect(empty?.migration == nil)
    }
}
