import Foundation
import Testing
@testable import OfflineStore

/// The streamed page reader (`KintoPageReader`) against the whole-page reader (`KintoPage`):
/// the same changes wherever the body is split, and a typed error for a page that is not a
/// Kinto list answer, wherever it goes wrong.
@Suite("Kinto page read as it arrives: same changes at every split, typed errors")
struct KintoPageReaderTests {
    /// A page with what makes finding a record's end hard: braces, brackets, quotes and
    /// backslashes inside strings, nesting, non-ASCII text, a tombstone, a record only a tree
    /// orders (duplicate-free but unsorted keys), numbers at the end of objects, members around `data`.
    static let page = #"""
     {"meta": {"x": [1, "]}", {"y": "\"{"}]}, "data" : [
      {"id":"a","last_modified":10,"title":"curly } and [ and \"quoted\" \\","n":-1.5e3},
      {"last_modified":11,"id":"b","list":[[],{},[{"z":null}]],"t":true,"f":false},
      {"id":"c","last_modified":12,"text":"é 中 😀 \u00e9\ud83d\ude00"},
      {"id":"d","last_modified":13,"deleted":true},
      {"id":"e","zeta":1,"alpha":{"b":2,"a":1},"last_modified":14}
     ], "after": 7}
    """#

    private static func whole(_ text: String) throws -> [RemoteChange] {
        try #require(KintoPage.changes(Data(text.utf8)))
    }

    private static func streamed(_ parts: [ArraySlice<UInt8>]) throws -> [RemoteChange] {
        var reader = KintoPageReader()
        var changes: [RemoteChange] = []
        for part in parts { try reader.read(part, into: &changes) }
        try reader.finish()
        return changes
    }

    @Test func everySplitPointGivesTheWholePageChanges() throws {
        let bytes = Array(Self.page.utf8)
        let expected = try Self.whole(Self.page)
        #expect(expected.count == 5)
        for split in 0...bytes.count {
            let changes = try Self.streamed([bytes[..<split], bytes[split...]])
            #expect(changes == expected, "split at byte \(split)")
        }
    }

    @Test func byteByByteAndThreeWaySplitsGiveTheSameChanges() throws {
        let bytes = Array(Self.page.utf8)
        let expected = try Self.whole(Self.page)
        #expect(try Self.streamed(bytes.indices.map { bytes[$0...$0] }) == expected)
        for first in stride(from: 0, to: bytes.count, by: 7) {
            for second in stride(from: first, to: bytes.count, by: 13) {
                #expect(try Self.streamed([bytes[..<first], bytes[first..<second], bytes[second...]]) == expected)
            }
        }
    }

    @Test func anEmptyPageHasNoChangesAtEverySplit() throws {
        let bytes = Array(#"{"data": [ ] }"#.utf8)
        for split in 0...bytes.count { #expect(try Self.streamed([bytes[..<split], bytes[split...]]).isEmpty) }
    }

    @Test func aRepeatedIDKeepsItsHighestVersion() throws {
        let text = #"{"data":[{"id":"a","last_modified":5,"v":1},{"id":"a","last_modified":3,"v":2},{"id":"b","last_modified":4}]}"#
        let changes = try Self.streamed([Array(text.utf8)[...]])
        #expect(changes.map(\.id) == ["a", "b"])
        #expect(changes.first?.version == "5")
    }

    /// Malformed pages, each with the offset where reading must stop being possible.
    static let malformed: [(String, String)] = [
        ("not an object", #"[{"id":"a","last_modified":1}]"#),
        ("no data", #"{"meta": 1}"#),
        ("data not an array", #"{"data": {"id":"a"}}"#),
        ("record not an object", #"{"data": [1]}"#),
        ("record without id", #"{"data": [{"last_modified": 1}]}"#),
        ("record without integer last_modified", #"{"data": [{"id":"a","last_modified":"x"}]}"#),
        ("trailing comma in record", #"{"data": [{"id":"a","last_modified":1,}]}"#),
        ("bad literal", #"{"data": [{"id":"a","last_modified":1,"t":tru}]}"#),
        ("missing colon", #"{"data" []}"#),
        ("garbage after", #"{"data": []} x"#),
        ("key not a string", #"{data: []}"#),
        ("too deep", #"{"data": ["# + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "]}"),
    ]

    @Test(arguments: malformed.indices) func malformedPageIsATypedErrorAtEverySplit(_ index: Int) throws {
        let (name, text) = Self.malformed[index]
        let bytes = Array(text.utf8)
        #expect(KintoPage.changes(Data(bytes)) == nil, "the whole-page reader accepts \(name)")
        for split in 0...bytes.count {
            #expect(throws: JSONError.self, "\(name), split at \(split)") {
                _ = try Self.streamed([bytes[..<split], bytes[split...]])
            }
        }
    }

    /// The whole-page reader keeps the last of two `data` members (a tree does); read as it
    /// arrives, the first one's records may already be applied, so a second one is refused.
    @Test func aSecondDataMemberIsATypedError() throws {
        let bytes = Array(#"{"data": [{"id":"a","last_modified":1}], "data": []}"#.utf8)
        for split in 0...bytes.count {
            #expect(throws: JSONError.self) { _ = try Self.streamed([bytes[..<split], bytes[split...]]) }
        }
    }

    @Test func aPageCutShortIsATypedErrorWhereverItStops() throws {
        let bytes = Array(Self.page.utf8)
        let end = bytes.lastIndex(of: UInt8(ascii: "}"))!
        for cut in 0...end {
            #expect(throws: JSONError.self, "cut at \(cut)") { _ = try Self.streamed([bytes[..<cut]]) }
        }
    }

    /// An empty object lacks `data` (not a key); data after the object is refused in the
    /// chunk it arrives in, before the body ends.
    @Test func anEmptyObjectLacksDataAndDataAfterTheObjectIsRefusedAtOnce() throws {
        for split in 0...2 {
            let bytes = Array("{}".utf8)
            do {
                _ = try Self.streamed([bytes[..<split], bytes[split...]])
                Issue.record("no error for {}")
            } catch let error as JSONError {
                #expect(error.reason.contains("no \"data\" member"), "split at \(split): \(error)")
            }
        }
        var reader = KintoPageReader()
        var changes: [RemoteChange] = []
        try reader.read(Array(#"{"data":[{"id":"a","last_modified":1}]}  "#.utf8), into: &changes)
        #expect(changes.map(\.id) == ["a"])
        #expect(throws: JSONError.self) { try reader.read(Array(" x".utf8), into: &changes) }
    }

    @Test func anErrorNamesTheByteOffsetInTheBody() throws {
        let text = #"{"data": [{"id":"a","last_modified":1}, {"id":"b","last_modified":2,"x":@}]}"#
        let bytes = Array(text.utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "@"))!
        for split in [0, 10, 30, at, bytes.count] {
            do {
                _ = try Self.streamed([bytes[..<split], bytes[split...]])
                Issue.record("no error")
            } catch let error as JSONError {
                #expect(error.offset == at, "split at \(split): \(error)")
            }
        }
    }
}
