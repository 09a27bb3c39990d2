import Foundation
import Testing
@testable import OfflineStore

/// Records pulled from a real Kinto are stored from their text (`KintoPage`, `CanonicalJSON`):
/// what the store holds must be exactly what a tree would have stored, whatever keys, numbers
/// and strings the records carry, including those only the tree path can order.
@Suite("Pulled record text on a real Kinto: stored exactly as the tree path stores it")
struct KintoRecordTextTests {
    /// Records another client writes: escapes, non-ASCII text and keys, numbers of every
    /// shape, nesting, and keys in no particular order.
    private static let records: [JSONValue] = [
        ["id": "plain", "title": "Buy milk", "done": false, "n": 3],
        ["id": "numbers", "i": 9_223_372_036_854_775_807, "neg": -42, "d": 1.5, "tiny": 1e-7, "whole": 2.0, "zero": 0],
        ["id": "strings", "quote": "say \"hi\"", "slash": "a/b\\c", "ctl": "tab\there\nline\u{1}", "emoji": "😀 é 中"],
        ["id": "keys", "zeta": 1, "Alpha": 2, "_under": 3, "a1": 4, "": 5, "b": ["y": 1, "x": ["q": [1, 2], "p": .null]]],
        ["id": "nonascii-keys", "é": 1, "e": 2, "中": ["ü": true]],
        ["id": "nested", "list": [["b": 1, "a": 2], [], [[]], "x", .null, true], "obj": [:]],
    ]

    @Test(.liveServer) func pulledRecordsEqualWhatWasWritten() async throws {
        let writer = try KintoServer.backend()
        let collection = KintoServer.uniqueName("text")
        try await writer.prepare(collection: collection)
        let operations = Self.records.map { record in
            PushOperation(id: record["id"]!.stringValue!, kind: .create, data: record, baseVersion: nil,
                          idempotencyKey: UUID().uuidString)
        }
        let outcomes = try await writer.push(operations, collection: collection)
        for outcome in outcomes {
            guard case .applied = outcome else { Issue.record("not created: \(outcome)"); return }
        }
        try await withTemporaryDirectory { dir in
            let store = try ObjectStore(path: dir.path("s.sqlite"), backend: writer)
            defer { try? store.close() }
            try store.register(CollectionDescriptor(collection))
            #expect(try await store.refresh().pulled == Self.records.count)
            for record in Self.records {
                let id = record["id"]!.stringValue!
                let stored = try store.collection(collection).object(id)
                #expect(stored?.persistent == record, "\(id)")
                #expect(stored?.state == .synced)
            }
            // The stored text is the canonical serialization, so a query on a field works.
            #expect(try store.collection(collection).findAll(where: .equal("n", 3)).count == 1)
            // And a pull that meets the stored objects (a full refresh) changes nothing.
            let again = try await store.refresh(full: true)
            #expect(again.conflictsDetected == 0)
            for record in Self.records {
                #expect(try store.collection(collection).object(record["id"]!.stringValue!)?.persistent == record)
            }
        }
    }
}
