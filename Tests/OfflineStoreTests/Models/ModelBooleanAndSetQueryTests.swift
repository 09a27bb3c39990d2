import Foundation
@testable import OfflineStore
import OfflineStoreTesting
import Testing

/// A task with two flags, an optional flag and sets: boolean key paths combined with each
/// other, `Bool?` alone, and membership in a `Set`.
struct FlaggedTask: SyncModel, Equatable {
    static let collectionName = "flagged"
    var id: String
    var flagged = false
    var done = false
    var archived: Bool?
    var labels: Set<String> = []
    var owners: Set<Int>?
}

extension Models {
    @Suite("Typed queries: boolean key paths together, Bool?, sets", .timeLimit(.minutes(5)))
    struct ModelBooleanAndSetQueryTests {
        func withTasks(_ body: (ModelCollection<FlaggedTask>) async throws -> Void) async throws {
            try await withTemporaryStore(configuration: .deferred) { store in
                try store.register(FlaggedTask.self)
                let tasks = store.collection(FlaggedTask.self)
                try await tasks.save(FlaggedTask(id: "a", flagged: true, done: true, archived: true, labels: ["home", "Work"], owners: [1, 2]))
                try await tasks.save(FlaggedTask(id: "b", flagged: true, done: false, archived: false, labels: ["work"]))
                try await tasks.save(FlaggedTask(id: "c", flagged: false, done: true, archived: nil, labels: [], owners: [2]))
                try await tasks.save(FlaggedTask(id: "d", flagged: false, done: false))
                try await body(tasks)
            }
        }

        @Test func twoBooleanKeyPathsCombine() async throws {
            try await withTasks { tasks async throws in
                #expect(try tasks.findAll(where: \.flagged && \.done).map(\.id) == ["a"])
                #expect(try tasks.findAll(where: \.flagged || \.done).map(\.id) == ["a", "b", "c"])
                #expect(try tasks.findAll(where: \.flagged && !\.done).map(\.id) == ["b"])
                #expect(try tasks.findAll(where: !\.flagged && !\.done).map(\.id) == ["d"])
                #expect(try tasks.count(where: \.flagged && \.done || \.done && .contains(\.owners, 2)) == 2)
                #expect(try tasks.findAll(where: \.flagged && \.done && .contains(\.labels, "home")).map(\.id) == ["a"])
            }
        }

        @Test func anOptionalBooleanAloneMeansTrue() async throws {
            try await withTasks { tasks async throws in
                #expect(try tasks.findAll(where: ModelPredicate(\.archived)).map(\.id) == ["a"])
                #expect(try tasks.findAll(where: !\.archived).map(\.id) == ["b", "c", "d"])
                #expect(try tasks.findAll(where: \.archived == nil).map(\.id) == ["c", "d"])
                #expect(try tasks.findAll(where: \.flagged && !\.archived).map(\.id) == ["b"])
            }
        }

        @Test func aSetHoldsAnElementComparedExactly() async throws {
            try await withTasks { tasks async throws in
                #expect(try tasks.findAll(where: .contains(\.labels, "work")).map(\.id) == ["b"])
                #expect(try tasks.findAll(where: .contains(\.labels, "Work")).map(\.id) == ["a"])
                #expect(try tasks.findAll(where: .contains(\.owners, 2)).map(\.id) == ["a", "c"])
                #expect(try tasks.findAll(where: !.contains(\.owners, 1)).map(\.id) == ["b", "c", "d"])
            }
        }
    }
}
