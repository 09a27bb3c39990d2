import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// Pull semantics of `InMemoryBackend`: order, tombstones, paging, cursors, snapshot bound.
@Suite struct InMemoryBackendPullTests {
    let v0 = PushFixture.firstVersion

    @Test func anEmptyCollectionGivesCursorZero() async throws {
        let backend = PushFixture.backend()
        let page = try await backend.pull(PullRequest(collection: "todos"))
        #expect(page.changes.isEmpty)
        #expect(page.cursor == "0")
        #expect(page.next == nil)
    }

    @Test func aPullReturnsChangesOldestFirstWithTombstonesAndSinceIsExclusive() async throws {
        let backend = PushFixture.backend()
        backend.put(collection: "todos", id: "b", record: ["n": 1])
        backend.put(collection: "todos", id: "a", record: ["n": 2])
        backend.delete(collection: "todos", id: "b")
        let all = try await backend.pull(PullRequest(collection: "todos"))
        #expect(all.changes == [
            RemoteChange(id: "a", record: ["id": "a", "n": 2], version: String(v0 + 1)),
            RemoteChange(id: "b", record: nil, version: String(v0 + 2)),
        ])
        #expect(all.cursor == String(v0 + 2))
        let since = try await backend.pull(PullRequest(collection: "todos", cursor: String(v0 + 1)))
        #expect(since.changes.map(\.id) == ["b"])
        let none = try await backend.pull(PullRequest(collection: "todos", cursor: all.cursor))
        #expect(none.changes.isEmpty)
        #expect(none.cursor == all.cursor)
    }

    @Test func aCollectionWithOnlyTombstonesKeepsItsTimestamp() async throws {
        let backend = PushFixture.backend()
        backend.put(collection: "todos", id: "a", record: [:])
        backend.delete(collection: "todos", id: "a")
        let page = try await backend.pull(PullRequest(collection: "todos", cursor: String(v0 + 1)))
        #expect(page.changes.isEmpty)
        #expect(page.cursor == String(v0 + 1))
    }

    @Test func pagesFollowThePageSizeAndTheLastCursorIsTheSnapshotBound() async throws {
        let backend = PushFixture.backend(pageSize: 2)
        for id in ["r1", "r2", "r3", "r4", "r5"] { backend.put(collection: "todos", id: id, record: [:]) }
        let first = try await backend.pull(PullRequest(collection: "todos"))
        #expect(first.changes.map(\.id) == ["r1", "r2"])
        #expect(first.cursor == String(v0 + 1))
        let afterFirst: PullContinuation = try #require(first.next)
        let second = try await backend.pull(PullRequest(collection: "todos", continuation: afterFirst))
        #expect(second.changes.map(\.id) == ["r3", "r4"])
        #expect(second.cursor == String(v0 + 3))
        backend.put(collection: "todos", id: "r6", record: [:])
        let afterSecond: PullContinuation = try #require(second.next)
        let last = try await backend.pull(PullRequest(collection: "todos", continuation: afterSecond))
        #expect(last.changes.map(\.id) == ["r5"])
        #expect(last.cursor == String(v0 + 4))
        #expect(last.next == nil)
        let after = try await backend.pullAll(collection: "todos", since: last.cursor)
        #expect(after.changes.map(\.id) == ["r6"])
        #expect(backend.pullCallCount == 4)
    }

    @Test func anExactlyFullLastPageHasNoNext() async throws {
        let backend = PushFixture.backend(pageSize: 2)
        backend.put(collection: "todos", id: "a", record: [:])
        backend.put(collection: "todos", id: "b", record: [:])
        let page = try await backend.pull(PullRequest(collection: "todos"))
        #expect(page.changes.count == 2)
        #expect(page.next == nil)
        #expect(page.cursor == String(v0 + 1))
    }

    @Test func recordsChangedBetweenPagesAreReturnedByTheNextPull() async throws {
        let backend = PushFixture.backend(pageSize: 2)
        for id in ["a", "b", "c", "d", "e"] { backend.put(collection: "todos", id: id, record: ["v": 1]) }
        let first = try await backend.pull(PullRequest(collection: "todos"))
        #expect(first.changes.map(\.id) == ["a", "b"])
        backend.put(collection: "todos", id: "a", record: ["v": 2])   // already returned
        backend.put(collection: "todos", id: "d", record: ["v": 2])   // not returned yet
        backend.delete(collection: "todos", id: "e")                   // not returned yet
        let continued = try await backend.pullRest(collection: "todos", after: first)
        #expect(continued.changes.map(\.id) == ["c"])
        #expect(continued.cursor == String(v0 + 4))
        let nextPull = try await backend.pullAll(collection: "todos", since: continued.cursor)
        #expect(nextPull.changes == [
            RemoteChange(id: "a", record: ["id": "a", "v": 2], version: String(v0 + 5)),
            RemoteChange(id: "d", record: ["id": "d", "v": 2], version: String(v0 + 6)),
            RemoteChange(id: "e", record: nil, version: String(v0 + 7)),
        ])
        let restartedFromFirstPage = try await backend.pullAll(collection: "todos", since: first.cursor)
        #expect(restartedFromFirstPage.changes.map(\.id) == ["c", "a", "d", "e"])
    }

    @Test func totalsAreAnnouncedOnlyWhenConfigured() async throws {
        let plain = PushFixture.backend()
        plain.put(collection: "todos", id: "a", record: [:])
        #expect(try await plain.pull(PullRequest(collection: "todos")).total == nil)
        let counting = InMemoryBackend(configuration: .init(pageSize: 1, now: ManualDate().now, announcesTotal: true))
        counting.put(collection: "todos", id: "a", record: [:])
        counting.put(collection: "todos", id: "b", record: [:])
        let page = try await counting.pull(PullRequest(collection: "todos"))
        #expect(page.total == 2)
        #expect(try await counting.pull(PullRequest(collection: "todos", continuation: page.next)).total == 2)
    }

    @Test func badCursorsAndForeignContinuationsThrow() async throws {
        let backend = PushFixture.backend(pageSize: 1)
        backend.put(collection: "todos", id: "a", record: [:])
        backend.put(collection: "todos", id: "b", record: [:])
        let quoted = try await backend.pull(PullRequest(collection: "todos", cursor: "\"\(v0)\""))
        #expect(quoted.changes.map(\.id) == ["b"])
        let badCursor = try #require(await expectStoreError(.server) {
            try await backend.pull(PullRequest(collection: "todos", cursor: "abc"))
        })
        #expect(badCursor.status == 400)
        let page = try await backend.pull(PullRequest(collection: "todos"))
        let foreign = try await #require(throws: OfflineStoreError.self) {
            try await backend.pull(PullRequest(collection: "other", continuation: page.next))
        }
        #expect(foreign.code == .invalidOperation)
        let garbage = try await #require(throws: OfflineStoreError.self) {
            try await backend.pull(PullRequest(collection: "todos", continuation: PullContinuation(token: "x")))
        }
        #expect(garbage.code == .invalidOperation)
    }
}
