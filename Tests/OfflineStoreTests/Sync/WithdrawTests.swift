import Foundation
import GRDB
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// ``QueueTransition/withdraw`` on a real store file: a batch marked in flight and never sent
/// returns to the queue as it was, and an online-only edit's undo does not bring back a mark
/// that was withdrawn meanwhile (``ObjectSnapshot``).
@Suite("Withdrawing a marked batch", .timeLimit(.minutes(2)))
struct WithdrawTests {
    static func entry(_ store: ObjectStore, _ id: String) throws -> QueueEntry {
        try #require(try store.local.read("reading") { db in try QueueTable.entries(db, collection: "todos", id: id) }.first)
    }

    static func mark(_ entries: [QueueEntry], in store: ObjectStore) throws -> [SentEntry] {
        try store.local.write("marking") { db in try InFlight.mark(entries, watchesLateDeliveries: false, in: db) }
    }

    @Test func aFirstSendReturnsPendingWithNothingSent() async throws {
        try await withTemporaryStore(configuration: .deferred, collections: [CollectionDescriptor("todos")]) { store in
            try await store.collection("todos").create(["id": "a", "title": "a"])
            let before = try Self.entry(store, "a")
            let marked = try Self.mark([before], in: store)
            #expect(try Self.entry(store, "a").state == .inFlight)
            try store.local.write("withdrawing") { db in try InFlight.withdraw(marked, in: db) }
            let after = try Self.entry(store, "a")
            #expect(after.state == .pending && after.attempts == 0)
            #expect(after.sentData == nil && after.sentRev == nil)
        }
    }

    /// A resend keeps the payload it has: the one it was sent with, or what a model upgrade
    /// rewrote it to while the batch was marked.
    @Test func aResendKeepsItsPayloadAndOneAttempt() async throws {
        try await withTemporaryStore(configuration: .deferred, collections: [CollectionDescriptor("todos")]) { store in
            try await store.collection("todos").create(["id": "a", "title": "a"])
            _ = try Self.mark([try Self.entry(store, "a")], in: store)
            try store.local.write("losing the answer") { db in try QueueTable.release(try Self.entry(store, "a").seq, error: nil, notBefore: nil, in: db) }
            let sentOnce = try Self.entry(store, "a")
            #expect(sentOnce.attempts == 1 && sentOnce.sentData != nil)
            let marked = try Self.mark([sentOnce], in: store)
            let upgraded = #"{"id":"a","title":"a","upgraded":true}"#
            try store.local.write("upgrading the payload") { db in
                try db.execute(sql: "UPDATE queue SET sent_data = ? WHERE seq = ?", arguments: [upgraded, sentOnce.seq])
            }
            try store.local.write("withdrawing") { db in try InFlight.withdraw(marked, in: db) }
            let after = try Self.entry(store, "a")
            #expect(after.state == .pending && after.attempts == 1)
            #expect(after.sentData == upgraded)
        }
    }

    /// An entry that is no longer in flight from the mark (here answered and gone, or marked
    /// again) is left as it is: the withdraw neither fails nor touches it.
    @Test func anEntryNoLongerMarkedIsLeftAlone() async throws {
        try await withTemporaryStore(configuration: .deferred, collections: [CollectionDescriptor("todos")]) { store in
            try await store.collection("todos").create(["id": "a", "title": "a"])
            try await store.collection("todos").create(["id": "b", "title": "b"])
            let marked = try Self.mark([try Self.entry(store, "a"), try Self.entry(store, "b")], in: store)
            try store.local.write("answering a") { db in try QueueTable.remove(db, seq: marked[0].entry.seq) }
            try store.local.write("withdrawing") { db in try InFlight.withdraw(marked, in: db) }
            #expect(try store.queueEntries(id: nil).map(\.objectID) == ["b"])
            #expect(try Self.entry(store, "b").state == .pending)
        }
    }

    /// An online-only edit snapshots the object while a flush has its entry marked; the flush
    /// withdraws it, the edit's push fails and the edit is undone: the entry stays as the
    /// withdraw left it (pending, never sent), not in flight as it was in the snapshot.
    @Test func anUndoKeepsTheWithdrawOfAnEntryThatWasInFlight() async throws {
        try await withTemporaryStore(configuration: .deferred, collections: [CollectionDescriptor("todos")]) { store in
            try await store.collection("todos").create(["id": "a", "title": "a"])
            let marked = try Self.mark([try Self.entry(store, "a")], in: store)
            let snapshot = try store.local.read("snapshot") { db in try ObjectSnapshot.take(db, collection: "todos", id: "a") }
            try store.local.write("withdrawing") { db in try InFlight.withdraw(marked, in: db) }
            try store.local.write("undoing") { db in try snapshot.restore(db) }
            let after = try Self.entry(store, "a")
            #expect(after.state == .pending && after.attempts == 0 && after.sentData == nil)
        }
    }

    /// An entry pending when the snapshot was taken goes back to the snapshot's lifecycle:
    /// the edit may have folded into it, and the undo takes that back whole.
    @Test func anUndoRestoresAPendingEntryAsItWas() async throws {
        try await withTemporaryStore(configuration: .deferred, collections: [CollectionDescriptor("todos")]) { store in
            try await store.collection("todos").create(["id": "a", "title": "a"])
            let snapshot = try store.local.read("snapshot") { db in try ObjectSnapshot.take(db, collection: "todos", id: "a") }
            try await store.collection("todos").destroy("a")
            #expect(try store.queueEntries(id: nil).isEmpty)
            try store.local.write("undoing") { db in try snapshot.restore(db) }
            let after = try Self.entry(store, "a")
            #expect(after.kind == .create && after.state == .pending && after.attempts == 0)
        }
    }
}
