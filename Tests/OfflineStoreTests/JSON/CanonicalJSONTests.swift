import Foundation
import Testing
@testable import OfflineStore

/// `CanonicalJSON` must give exactly `JSONValue(parsing:).serialized()` — the text the store
/// keeps and compares — and accept exactly what the parser accepts.
@Suite("CanonicalJSON: the store's canonical text without a tree")
struct CanonicalJSONTests {
    /// The tree path's text, or nil when the parser refuses the bytes.
    private func viaTree(_ bytes: [UInt8]) -> [UInt8]? {
        guard let value = try? JSONValue(parsing: bytes) else { return nil }
        var out: [UInt8] = []
        value.write(into: &out)
        return out
    }

    /// The transcoder's text; `.needsTree` when it hands the document to the tree path.
    private enum Outcome: Equatable { case text([UInt8]), refused, needsTree }
    private func viaTranscoder(_ bytes: [UInt8]) -> Outcome {
        do { return .text(try CanonicalJSON.canonical(bytes)) } catch is CanonicalJSON.NeedsTree { return .needsTree } catch {
            return .refused
        }
    }

    /// Checks one document: same text as the tree, or refused by both, or handed to the tree.
    private func check(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let tree = viaTree(bytes)
        switch viaTranscoder(bytes) {
        case .text(let text):
            #expect(tree == text, "\(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        case .refused:
            #expect(tree == nil, "refused what the parser accepts: \(String(decoding: bytes, as: UTF8.self))",
                    sourceLocation: sourceLocation)
        case .needsTree:
            break
        }
    }

    @Test("hand-picked documents give the tree's text", arguments: [
        #"{"b":1,"a":2}"#, #"{ "a" : [ 1 , 2.50 , -0 , 1e3 , 1E-2, 0.1 ] , "b" : { "d" : null , "c" : true } }"#,
        #"{"s":"caf\u00e9 \/ \"q\" \\ \n\t\b\f\u0001 \ud83d\ude00 é"}"#, #"[]"#, #"{}"#, #"[{}, [], "x"]"#,
        #"{"big":123456789012345678901234567890,"i":9223372036854775807,"j":-9223372036854775808}"#,
        #"{"n":12345678901234567890, "m":-1234567890123456789, "k":1.0}"#,
        "{\"a\":\"\u{7F}\u{80}\"}", #"{"z":1,"y":{"b":[{"d":1,"c":2}],"a":0}}"#, "\t{\"a\":1}\n ",
    ])
    func handPicked(_ text: String) throws {
        let bytes = Array(text.utf8)
        #expect(viaTree(bytes) != nil)
        #expect(viaTranscoder(bytes) == .text(viaTree(bytes)!))
    }

    @Test("malformed documents are refused as the parser refuses them", arguments: [
        #"{"a":1,}"#, #"{"a" 1}"#, #"[1,]"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":1e}"#, #"{"a":"\x"}"#,
        #"{"a":"\ud800"}"#, #"{"a":tru}"#, #"{"a":1} x"#, #"{"a":"unterminated}"#, "{\"a\":\"\u{1}\"}", #"{"a":1e999}"#, "",
    ])
    func malformed(_ text: String) {
        #expect(viaTree(Array(text.utf8)) == nil)
        #expect(viaTranscoder(Array(text.utf8)) == .refused)
    }

    @Test("invalid UTF-8 and nesting past the limit are refused")
    func invalidBytes() {
        for bytes: [UInt8] in [[0x22, 0xC3, 0x28, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
                               [0x22, 0xE2, 0x82, 0x22], [0x22, 0xC0, 0xAF, 0x22]] {
            #expect(viaTree(bytes) == nil)
            #expect(viaTranscoder(bytes) == .refused)
        }
        let deep = Array(String(repeating: "[", count: 257).utf8) + Array(String(repeating: "]", count: 257).utf8)
        #expect(viaTree(deep) == nil)
        #expect(viaTranscoder(deep) == .refused)
        let limit = Array(String(repeating: "[", count: 256).utf8) + Array(String(repeating: "]", count: 256).utf8)
        #expect(viaTranscoder(limit) == .text(viaTree(limit)!))
    }

    @Test("a repeated key or a key that is not plain ASCII goes the tree way")
    func treeCases() {
        #expect(viaTranscoder(Array(#"{"a":1,"a":2}"#.utf8)) == .needsTree)
        #expect(viaTranscoder(Array(#"{"é":1,"e":2}"#.utf8)) == .needsTree)
        #expect(viaTranscoder(Array(#"{"a\"b":1}"#.utf8)) == .needsTree)
    }

    @Test("random documents and their mutations: same text as the tree, or refused by both")
    func randomDocuments() {
        var rng = ObjectStoreCrashTests.SeededGenerator(seed: 0x5eed)  // deterministic: a failure repeats
        for _ in 0..<3_000 {
            let document = Array(randomJSON(&rng, depth: 0).utf8)
            check(document)
            #expect(viaTranscoder(document) != .refused)
            // Mutations: a byte changed, dropped or duplicated.
            for _ in 0..<4 where !document.isEmpty {
                var mutated = document
                let at = Int(rng.next() % UInt64(mutated.count))
                switch rng.next() % 3 {
                case 0: mutated[at] = Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))]
                case 1: mutated.remove(at: at)
                default: mutated.insert(mutated[at], at: at)
                }
                check(mutated)
            }
        }
    }

    @Test("a Kinto record: last_modified left out, id, tombstone and version read")
    func kintoRecord() throws {
        let bytes = Array(#"{"title":"x","last_modified":17,"id":"a","deleted":false}"#.utf8)
        var out: [UInt8] = []
        let top = try bytes.withUnsafeBufferPointer { buffer in
            var reader = CanonicalJSON(bytes: buffer)
            return try reader.record(into: &out, dropping: "last_modified")
        }
        #expect(String(decoding: out, as: UTF8.self) == #"{"deleted":false,"id":"a","title":"x"}"#)
        #expect(top.id == "a")
        #expect(top.lastModified == Array("17".utf8))
        #expect(!top.deletedIsTrue)
        #expect(!top.onlyTombstoneKeys)
    }

    @Test("a Kinto page reads the same changes as the tree way")
    func kintoPage() throws {
        let page = #"""
            {"data":[{"id":"b","last_modified":3,"z":1,"a":"\u00e9"},{"last_modified":4,"deleted":true,"id":"c"},
            {"id":"b","last_modified":5,"n":1.50},{"id":"d","last_modified":2.0,"x":[{"q":1,"p":2}]},
            {"id":"e","last_modified":7,"é":1,"e":[[{"z":1}]]},{"id":"f","last_modified":8,"a":1,"a":2},{"id":"g","last_modified":9}],
            "other":{"k":1}}
            """#
        let changes = try #require(KintoPage.changes(Data(page.utf8)))
        let items = try #require(JSONValue(parsing: page)["data"]?.arrayValue)
        let tree = try #require(KintoPage.changes(of: items))
        #expect(changes == tree)
        #expect(changes.map(\.id) == ["c", "b", "d", "e", "f", "g"])
        #expect(changes[0].record == nil)
        #expect(changes[1].canonicalText.map { String(decoding: $0, as: UTF8.self) } == #"{"id":"b","n":1.5}"#)
        #expect(changes[2].version == "2")
        // Only the records a tree must order went the tree way; the others stayed text.
        #expect(changes.map { $0.canonicalText != nil } == [false, true, true, false, false, true])
        #expect(changes[4].record == ["id": "f", "a": 2])
        for bad in [#"{"data":[{"last_modified":1}]}"#, #"{"data":[{"id":"a"}]}"#, #"{"data":{}}"#, #"{"nodata":[]}"#,
                    #"{"data":[1]}"#, #"{"data":[{"id":"a","last_modified":"x"}]}"#, #"{"data":[]"#, "[]"] {
            #expect(KintoPage.changes(Data(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test("RemoteChange from text: checked, canonical, equal to the same change as a tree")
    func remoteChangeText() throws {
        let change = try RemoteChange(id: "a", recordText: Array(#"{ "b" : 1, "id" : "a" }"#.utf8), version: "1")
        #expect(change.canonicalText != nil)
        #expect(change == RemoteChange(id: "a", record: ["id": "a", "b": 1], version: "1"))
        #expect(change.hashValue == RemoteChange(id: "a", record: ["id": "a", "b": 1], version: "1").hashValue)
        let noID = try RemoteChange(id: "a", recordText: Array(#"{"b":1}"#.utf8), version: "1")
        #expect(noID.record == ["id": "a", "b": 1])
        expectStoreError(.invalidID) { try RemoteChange(id: "a", recordText: Array(#"{"id":"b"}"#.utf8), version: "1") }
        expectStoreError(.invalidJSON) { try RemoteChange(id: "a", recordText: Array(#"{"id":"a""#.utf8), version: "1") }
        expectStoreError(.invalidJSON) { try RemoteChange(id: "a", recordText: Array("[1]".utf8), version: "1") }
        var renamed = change
        renamed.id = "b"
        #expect(renamed.canonicalText == nil)
        #expect(renamed.record == ["id": "a", "b": 1])
    }

    // MARK: - Random JSON

    private static let alphabet = Array(#"{}[]":,\ 0123456789.-+eEtrufalsn\/bu"#.utf8) + [0x01, 0xC3, 0xA9, 0xFF]

    private func randomJSON(_ rng: inout ObjectStoreCrashTests.SeededGenerator, depth: Int) -> String {
        let ws = ["", " ", "\n", "\t "][Int(rng.next() % 4)]
        switch rng.next() % (depth > 3 ? 4 : 6) {
        case 0: return ws + ["true", "false", "null"][Int(rng.next() % 3)]
        case 1:
            let numbers = ["0", "-0", "12", "-7", "3.25", "1e3", "-2.5E-3", "9223372036854775807", "-9223372036854775808",
                           "9223372036854775808", "123456789012345678", "1234567890123456789", "0.1", "1.0", "100000000000000000000"]
            return numbers[Int(rng.next() % UInt64(numbers.count))] + ws
        case 2: return randomString(&rng)
        case 3:
            let keys = ["a", "b", "id", "last_modified", "Z", "a_1", "zz", "é", "a\\\"b", "\\u0041", ""]
            return "\"" + keys[Int(rng.next() % UInt64(keys.count))] + "\""
        case 4:
            let count = Int(rng.next() % 4)
            return "[" + ws + (0..<count).map { _ in randomJSON(&rng, depth: depth + 1) }.joined(separator: "," + ws) + "]"
        default:
            let count = Int(rng.next() % 5)
            let keys = ["a", "b", "id", "c", "last_modified", "zeta", "A", "_", "a1", "deleted"]
            let members = (0..<count).map { _ in
                "\"" + keys[Int(rng.next() % UInt64(keys.count))] + "\"" + ws + ":" + randomJSON(&rng, depth: depth + 1)
            }
            return "{" + members.joined(separator: ",") + ws + "}"
        }
    }

    private func randomString(_ rng: inout ObjectStoreCrashTests.SeededGenerator) -> String {
        let pieces = ["a", "é", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\u0001", "\\ud83d\\ude00", "😀", " ", "\\t", "\u{7F}", "\\b"]
        let count = Int(rng.next() % 5)
        return "\"" + (0..<count).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined() + "\""
    }
}
