import Foundation
import OfflineStore
import OfflineStoreTesting

/// Push operations and a fixed-clock backend for the in-memory backend's tests.
enum PushFixture {
    /// The first version a backend on a fresh ``ManualDate`` gives: its time in ms.
    static let firstVersion: Int64 = 1_800_000_000_000

    /// A create ("must not exist").
    static func create(_ id: String, _ data: JSONValue) -> PushOperation {
        PushOperation(id: id, kind: .create, data: data, baseVersion: nil, idempotencyKey: "create-\(id)")
    }

    /// An update based on `base`.
    static func update(_ id: String, _ data: JSONValue, base: String?) -> PushOperation {
        PushOperation(id: id, kind: .update, data: data, baseVersion: base, idempotencyKey: "update-\(id)")
    }

    /// A delete based on `base`.
    static func delete(_ id: String, base: String?) -> PushOperation {
        PushOperation(id: id, kind: .delete, data: nil, baseVersion: base, idempotencyKey: "delete-\(id)")
    }

    /// A backend whose wall clock stands still at ``firstVersion`` unless `date` is advanced.
    static func backend(
        maxBatchSize: Int = 25, pageSize: Int = 100, date: ManualDate = ManualDate(),
        clock: any Clock<Duration> = ManualClock()
    ) -> InMemoryBackend {
        InMemoryBackend(maxBatchSize: maxBatchSize, pageSize: pageSize, now: date.now, clock: clock)
    }
}

extension InMemoryBackend {
    /// Pulls every page from `cursor`; returns the changes and the last page's cursor.
    func pullAll(collection: String, since cursor: String?) async throws -> (changes: [RemoteChange], cursor: String?) {
        let first = try await pull(PullRequest(collection: collection, cursor: cursor))
        let rest = try await pullRest(collection: collection, since: cursor, after: first)
        return (first.changes + rest.changes, rest.cursor ?? first.cursor)
    }

    /// Pulls the pages after `page`; returns their changes and the last page's cursor (nil if `page` was last).
    func pullRest(collection: String, since cursor: String? = nil,
                  after page: PullPage) async throws -> (changes: [RemoteChange], cursor: String?) {
        var changes: [RemoteChange] = []
        var current = page
        var lastCursor: String?
        while let next = current.next {
            current = try await pull(PullRequest(collection: collection, cursor: cursor, continuation: next))
            changes += current.changes
            lastCursor = current.cursor
        }
        return (changes, lastCursor)
    }
}
