import Foundation
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// Every error of the typed API is an ``OfflineStoreError`` (Docs/Errors.md): an object that
/// does not decode, a value JSON cannot hold.
@Suite struct ModelErrorTests {
    @Test func findOnAnUndecodableObjectThrowsOfflineStoreErrorWithItsIDAndJSON() async throws {
        try await withTodoStore { store, _ in
            try await store.collection("todos").save(["id": "bad", "title": 42])
            var thrown: (any Error)?
            do { _ = try store.collection(Todo.self).find("bad") } catch { thrown = error }
            let error = try #require(thrown as? OfflineStoreError)
            #expect(error.code == .undecodable)
            #expect(error.undecodableRecord?.id == "bad")
            #expect(error.undecodableRecord?.json == ["id": "bad", "title": 42])
            #expect(error.message.contains("todos/bad") && error.message.contains("title"))
            #expect(error.localizedDescription == "An item could not be read by this version of the app.")
        }
    }

    @Test func aMergedCopyOrATransactionReadThatDoesNotDecodeThrowsOfflineStoreError() async throws {
        try await withTodoStore { store, _ in
            try await store.collection("todos").save(["id": "bad", "done": true])
            var thrown: (any Error)?
            do {
                try await store.transaction { tx in _ = try tx.find(Todo.self, id: "bad") }
            } catch { thrown = error }
            #expect((thrown as? OfflineStoreError)?.code == .undecodable)
            #expect((thrown as? OfflineStoreError)?.undecodableRecord?.id == "bad")
        }
    }

    @Test func aValueJSONCannotHoldIsInvalidJSON() async throws {
        try await withTemporaryStore { store in
            try store.register(Item.self)
            var item = Item.sample()
            item.weight = .nan
            var thrown: (any Error)?
            do { try await store.collection(Item.self).save(item) } catch { thrown = error }
            let error = try #require(thrown as? OfflineStoreError)
            #expect(error.code == .invalidJSON)
            #expect(error.underlyingError is EncodingError)
            #expect(try store.collection(Item.self).count() == 0)
        }
    }
}
