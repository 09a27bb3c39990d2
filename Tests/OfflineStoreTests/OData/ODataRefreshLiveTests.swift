import Foundation
import Testing
@testable import OfflineStore

/// Refresh against the fixture: a full pull of the plain service finds deletions by absence
/// and misses no live entity when an earlier one is deleted between its pages; a delta link
/// the service refuses starts a full pull that sweeps, local edits kept.
@Suite("OData refresh on the fixture", .timeLimit(.minutes(5)))
struct ODataRefreshLiveTests {
    let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }

    /// Eight Guid keys that sort before any random one, so that they fill the first pages.
    static let firstKeys = (0..<8).map { String(format: "00000000-0000-4000-8000-%012d", $0) }

    @Test(.liveServer) func aDeleteBetweenPagesOfThePlainServiceSkipsNoLiveEntity() async throws {
        let mode = ODataServer.Mode.plain
        for key in Self.firstKeys { try await ODataServer.request(mode, "DELETE", "Tasks(\(key))", headers: [("If-Match", "*")]) }
        let removed = Self.firstKeys[0]
        // Before the second page: another client deletes the first entity the first page listed.
        let wire = ODataHookTransport(before: { $0.method == "GET" && ($0.url.query?.removingPercentEncoding?.contains(" gt ") ?? false) },
                                      run: { try await ODataServer.request(mode, "DELETE", "Tasks(\(removed))", headers: [("If-Match", "*")]) })
        try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode, transport: wire),
                                     collections: [CollectionDescriptor("Tasks")]) { store in
            for key in Self.firstKeys {
                _ = try await store.collection("Tasks").create(["id": .string(key), "Title": .string(ODataServer.uniqueTitle("page"))])
            }
            #expect(try await store.flush().pushed == 8)

            try await store.refresh(collections: ["Tasks"])

            #expect(wire.requestLines.contains { $0.removingPercentEncoding?.contains("ID gt 00000000-0000-4000-8000-") ?? false },
                    "the second page is asked by key")
            for key in Self.firstKeys.dropFirst() {
                #expect(try store.collection("Tasks").object(key)?.state == .synced, "\(key) was listed and kept")
            }
            let again = try await store.refresh(collections: ["Tasks"])
            #expect(again.swept >= 1)
            #expect(try store.collection("Tasks").find(removed) == nil, "the next full pull sweeps the deleted entity")
            #expect(try store.collection("Tasks").find(Self.firstKeys[1]) != nil)
        }
    }

    @Test(.liveServer) func aFullPullOfThePlainServiceReadsTwoKeyRangesAtOnceEachEntityOnce() async throws {
        let mode = ODataServer.Mode.plain
        let title = ODataServer.uniqueTitle("ranges")
        try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode),
                                     collections: [CollectionDescriptor("Tasks")]) { writer in
            // Twenty keys low and ten high in the key space (pages of 5): whatever else the set
            // holds, the first page takes at most 5 of the low ones, so the lower range has at
            // least 3 pages, and its third is asked only once the upper range's first is taken.
            let ids = [("1", 20), ("e", 10)].flatMap { first, count in
                (0..<count).map { _ in first + UUID().uuidString.lowercased().dropFirst() }
            }
            for id in ids { _ = try await writer.collection("Tasks").create(["id": .string(id), "Title": .string(title)]) }
            #expect(try await writer.flush().pushed == 30)
            let wire = ODataRecordingTransport()
            try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode, transport: wire),
                                         collections: [CollectionDescriptor("Tasks")]) { reader in
                try await reader.refresh(collections: ["Tasks"])
                for id in ids { #expect(try reader.collection("Tasks").object(id)?.state == .synced, "\(id) was read") }
                // Other suites write Tasks meanwhile: whatever the set holds, the key ranges are
                // disjoint, so no entity is listed twice by the pages ordered by key.
                let keyed = wire.listings.filter { $0.line.contains("$orderby=ID") && !$0.line.contains("$orderby=ID desc") }
                let listed = keyed.flatMap(\.ids)
                #expect(Set(listed).count == listed.count, "an entity listed twice: \(wire.lines)")
                #expect(wire.lines.filter { $0.contains("$orderby=ID desc&$top=1") }.count == 1, "the largest key asked once")
                let bounded = keyed.filter { $0.line.contains(" le ") }
                #expect(!bounded.isEmpty, "the keys up to the midpoint are a range of their own: \(wire.lines)")
                // Both ranges were on the wire together: an upper page came before the lower range's last.
                let upper = keyed.indices.filter { keyed[$0].line.contains(" gt ") && !keyed[$0].line.contains(" le ") }
                let lastLower = keyed.indices.last { keyed[$0].line.contains(" le ") }
                #expect(upper.contains { $0 < (lastLower ?? 0) }, "the ranges were read in turn: \(wire.lines)")
            }
        }
    }

    @Test(.liveServer) func aRefusedDeltaLinkStartsAFullPullThatSweepsAndKeepsLocalEdits() async throws {
        // The plain service refuses every $deltatoken (400): a delta link stored from a service that
        // tracked changes, which no longer does, or whose token expired.
        let mode = ODataServer.Mode.plain
        try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode),
                                     collections: [CollectionDescriptor("Tasks")]) { store in
            let kept = try #require(try await store.collection("Tasks").create(["Title": .string(ODataServer.uniqueTitle("kept"))])["id"]?.stringValue)
            let gone = try #require(try await store.collection("Tasks").create(["Title": .string(ODataServer.uniqueTitle("gone"))])["id"]?.stringValue)
            let editedAndGone = try #require(try await store.collection("Tasks").create(["Title": .string(ODataServer.uniqueTitle("eg"))])["id"]?.stringValue)
            try await store.flush()
            for id in [gone, editedAndGone] {
                #expect(try await ODataServer.request(mode, "DELETE", "Tasks(\(id))", headers: [("If-Match", "*")]).status == 204)
            }
            _ = try await store.collection("Tasks").patch(kept, ["Notes": "mine"])
            _ = try await store.collection("Tasks").patch(editedAndGone, ["Notes": "mine too"])
            let stale = try ODataServer.url(mode).absoluteString + "/Tasks?$deltatoken=7"
            try store.syncEngine.write("storing a delta link") { db in try CollectionsTable.setCursor(stale, of: "Tasks", in: db) }

            let report = try await store.refresh(collections: ["Tasks"])

            #expect(report.swept >= 1)
            #expect(try store.collection("Tasks").find(gone) == nil, "swept after the full pull")
            #expect(try store.collection("Tasks").find(kept)?["Notes"] == "mine", "the local edit is kept")
            #expect(try store.collection("Tasks").find(editedAndGone)?["Notes"] == "mine too", "an edited object is never swept")
            #expect(try store.syncEngine.storedCursor(of: "Tasks") == nil, "the plain service gives no delta link")
            let flushed = try await store.flush()
            #expect(flushed.pushed >= 1)
            #expect(try await ODataServer.request(mode, "GET", "Tasks(\(kept))").json?["Notes"] == "mine")
        }
    }

    @Test(.liveServer) func theDeltaServiceStoresTheFirstPagesDeltaLinkAndReadsRemovals() async throws {
        let mode = ODataServer.Mode.delta
        try await withTemporaryStore(configuration: deferred, backend: try ODataServer.backend(mode),
                                     collections: [CollectionDescriptor("Tasks")]) { store in
            let id = try #require(try await store.collection("Tasks").create(["Title": .string(ODataServer.uniqueTitle("d"))])["id"]?.stringValue)
            try await store.sync()
            let cursor = try #require(try store.syncEngine.storedCursor(of: "Tasks"))
            #expect(cursor.contains("$deltatoken="))
            #expect(try await ODataServer.request(mode, "DELETE", "Tasks(\(id))", headers: [("If-Match", "*")]).status == 204)
            let report = try await store.refresh(collections: ["Tasks"])
            #expect(report.swept == 0, "a delta reports removals itself")
            #expect(try store.collection("Tasks").find(id) == nil)
            #expect(try store.syncEngine.storedCursor(of: "Tasks") != cursor)
        }
    }
}
