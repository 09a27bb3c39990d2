import Foundation
import Testing
import OfflineStore

/// Parses text, failing the test (not crashing) on an error.
private func parse(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

/// The error that parsing these bytes throws; fails the test if parsing succeeds.
private func parseError(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> JSONError? {
    #expect(throws: JSONError.self, sourceLocation: sourceLocation) { try JSONValue(parsing: Data(bytes)) }
}

private func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONError? {
    #expect(throws: JSONError.self, sourceLocation: sourceLocation) { try JSONValue(parsing: text) }
}

@Suite("JSONValue: exact parsing, serializing and Codable bridging")
struct JSONValueTests {
    // MARK: Numbers

    @Test("integers and doubles stay apart", arguments: [
        ("1", JSONValue.int(1)),
        ("-1", .int(-1)),
        ("0", .int(0)),
        ("-0", .int(0)),
        ("1.0", .double(1.0)),
        ("1e3", .double(1000)),
        ("1E3", .double(1000)),
        ("1e+3", .double(1000)),
        ("1e-3", .double(0.001)),
        ("0.1", .double(0.1)),
        ("9223372036854775807", .int(.max)),
        ("-9223372036854775808", .int(.min)),
    ])
    func numberKinds(text: String, expected: JSONValue) throws {
        let value = try parse(text)
        #expect(value == expected)
        // Equality compares the case: an integer is never equal to the same double.
        if case .int = expected { #expect(value != .double(Double(expected.intValue!))) }
    }

    @Test func negativeZeroKeepsItsSignAndKind() throws {
        let value = try parse("-0.0")
        guard case .double(let d) = value else {
            Issue.record("-0.0 parsed as \(value)")
            return
        }
        #expect(d == 0 && d.sign == .minus)
        #expect(value.serialized() == "-0.0")
        guard case .double(let again) = try parse(value.serialized()) else {
            Issue.record("-0.0 did not read back as a double")
            return
        }
        #expect(again.sign == .minus)
    }

    @Test func doublesSerializeWithAFractionOrExponent() throws {
        #expect(JSONValue.int(1).serialized() == "1")
        #expect(JSONValue.double(1).serialized() == "1.0")
        #expect(JSONValue.double(1000).serialized() == "1000.0")
        for d in [1.0, 1e3, 1e-7, 1e300, .leastNonzeroMagnitude, -2.5, 0.1, 123456789.125, Double.greatestFiniteMagnitude] {
            let text = JSONValue.double(d).serialized()
            #expect(try parse(text) == .double(d), "\(d) wrote \(text)")
        }
        for i: Int64 in [0, 1, -1, 42, .max, .min] {
            #expect(try parse(JSONValue.int(i).serialized()) == .int(i))
        }
    }

    @Test func nonFiniteDoublesSerializeAsNull() {
        #expect(JSONValue.double(.infinity).serialized() == "null")
        #expect(JSONValue.double(-.infinity).serialized() == "null")
        #expect(JSONValue.double(.nan).serialized() == "null")
    }

    @Test("numbers outside the double range are errors", arguments: [
        "1e400", "-1e400", "1e99999", String(repeating: "9", count: 400), "-" + String(repeating: "9", count: 400),
    ])
    func hugeNumbers(text: String) {
        let error = parseError(text)
        #expect(error?.offset == 0)
        #expect(error?.reason.contains("out of range") == true)
        // Inside a document the offset points at the number.
        #expect(parseError("[1, \(text)]")?.offset == 4)
    }

    @Test func integersBeyondSixtyFourBitsBecomeDoubles() throws {
        // Like JavaScript: a valid JSON integer too large for Int64 is read as the nearest double.
        #expect(try parse("18446744073709551616") == .double(18446744073709551616))
        #expect(try parse("-9223372036854775809") == .double(-0x1p63))
    }

    @Test("malformed numbers are errors", arguments: [
        ("01", 0), ("-", 0), ("-a", 0), ("+1", 0), (".5", 0), ("1.", 2), ("1.e3", 2), ("1e", 2), ("1e+", 3),
        ("0x10", 1), ("NaN", 0), ("Infinity", 0), ("-Infinity", 0), ("1,", 1),
    ])
    func malformedNumbers(text: String, offset: Int) {
        #expect(parseError(text)?.offset == offset)
    }

    // MARK: Structure

    @Test func nestedValuesRoundTrip() throws {
        let value: JSONValue = [
            "id": "a1",
            "int": 7,
            "double": 7.0,
            "exp": .double(1e21),
            "negative": -3,
            "bool": true,
            "off": false,
            "nothing": .null,
            "text": "line\nbreak \"quoted\" \\ / tab\t é 😀 \u{1}",
            "empty": [:],
            "list": [1, 1.5, "two", [3, [4, [5]]], ["deep": ["deeper": [.null, false]]], [], [:]],
            "object": ["a": ["b": ["c": ["d": 1]]], "": "empty key", "ключ": "значение"],
        ]
        let text = value.serialized()
        let back = try parse(text)
        #expect(back == value)
        #expect(back.serialized() == text)
        // Kinds survive the trip.
        #expect(back["int"] == .int(7))
        #expect(back["double"] == .double(7))
        #expect(back["exp"] == .double(1e21))
        // Also through bytes.
        #expect(try JSONValue(parsing: Data(text.utf8)) == value)
    }

    @Test func serializationIsCompactWithSortedKeys() {
        let value: JSONValue = ["b": 1, "a": [true, .null], "c": ["z": 1.5, "y": "s"]]
        #expect(value.serialized() == #"{"a":[true,null],"b":1,"c":{"y":"s","z":1.5}}"#)
        #expect(value.description == value.serialized())
    }

    @Test func everyKeyIsKept() throws {
        var members: [String] = []
        for i in 0..<500 { members.append("\"k\(i)\":\(i)") }
        members += [#""":"empty""#, #""K0":"case differs""#, #""k 0":"space""#, #""\u0000":"nul""#,
                    #""é":"accented""#, #""😀":"emoji""#, #""a.b":"dot""#, #""$":"dollar""#]
        let value = try parse("{" + members.joined(separator: ",") + "}")
        let object = try #require(value.objectValue)
        #expect(object.count == 508)
        #expect(object["k0"] == .int(0))
        #expect(object["k499"] == .int(499))
        #expect(object[""] == "empty")
        #expect(object["K0"] == "case differs")
        #expect(object["k 0"] == "space")
        #expect(object["\u{0}"] == "nul")
        #expect(object["é"] == "accented")
        #expect(object["😀"] == "emoji")
        #expect(object["a.b"] == "dot")
        #expect(object["$"] == "dollar")
        #expect(try parse(value.serialized()) == value)
    }

    @Test func whitespaceAroundTokensIsAllowed() throws {
        #expect(try parse(" \t\r\n{ \"a\" : [ 1 , 2 ] }\n ") == ["a": [1, 2]])
        #expect(try parse("[ ]") == [])
        #expect(try parse("{ }") == [:])
    }

    // MARK: Strings

    @Test func escapesAreDecoded() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u0041\u00e9\u00E9\u4e2d""#) == "Aéé中")
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
        #expect(try parse(#""a\nb""#) == "a\nb")
        // Unescaped UTF-8 passes through.
        #expect(try parse("\"é中😀\"") == "é中😀")
    }

    @Test func surrogatePairsMakeOneScalar() throws {
        #expect(try parse(#""\ud83d\ude00""#) == "😀")
        #expect(try parse(#""\uD834\uDD1E""#) == "𝄞")
        #expect(try parse(#""x\ud83d\ude00y""#) == "x😀y")
        #expect(try parse(#""\udbff\udfff""#) == .string(String(Unicode.Scalar(0x10FFFF)!)))
    }

    @Test("broken escapes are errors", arguments: [
        #""\ud83d""#, #""\ude00""#, #""\ud83dx""#, #""\ud83d\u0041""#, #""\ud83d\n""#,
        #""\u12""#, #""\u12g4""#, #""\x""#, #""\'""#, #""\U0041""#, #""abc\""#,
    ])
    func brokenEscapes(text: String) {
        let error = parseError(text)
        #expect(error != nil)
        #expect((error?.offset ?? -1) >= 0 && (error?.offset ?? .max) <= text.utf8.count)
    }

    @Test func controlCharactersMustBeEscapedInStrings() {
        #expect(parseError("\"a\nb\"")?.offset == 2)
        #expect(parseError("\"a\u{1}\"")?.offset == 2)
        #expect(parseError("\"\\n\tx\"")?.offset == 3)  // after an escape too
    }

    @Test func serializerEscapesWhatJSONRequires() throws {
        let text = JSONValue.string("\"\\\n\r\t\u{0}\u{1F}/é").serialized()
        #expect(text == #""\"\\\n\r\t\u0000\u001f/é""#)
        #expect(try parse(text) == .string("\"\\\n\r\t\u{0}\u{1F}/é"))
        // Every control character round-trips.
        let controls = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) }))
        #expect(try parse(JSONValue.string(controls).serialized()) == .string(controls))
    }

    // MARK: Malformed input

    @Test("invalid UTF-8 is an error with an offset", arguments: [
        ([0x22, 0xFF, 0x22], 0),                   // not UTF-8 at all
        ([0x22, 0x61, 0x62, 0xFF, 0x22], 0),       // after ASCII (no longer the ASCII-only path)
        ([0x22, 0xFF, 0x61, 0x22], 0),             // before ASCII (the path stays left)
        ([0x22, 0xC0, 0xAF, 0x22], 0),             // overlong "/"
        ([0x22, 0xE2, 0x82, 0x22], 0),             // truncated sequence
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 0),       // encoded surrogate
        ([0x22, 0x5C, 0x6E, 0xFF, 0x22], 0),       // after an escape (slow path)
        ([0x5B, 0x31, 0x2C, 0x22, 0x80, 0x22, 0x5D], 3),  // inside an array
        ([0xFF], 0),                               // outside any string
        ([0x5B, 0xC3, 0xA9, 0x5D], 1),             // a valid "é" where a value must be
        ([0xEF, 0xBB, 0xBF, 0x31], 0),             // a byte-order mark is not JSON
    ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], offset: Int) {
        #expect(parseError(bytes)?.offset == offset)
    }

    @Test("truncated documents are errors", arguments: [
        ("", 0), ("   ", 3), ("{", 1), ("[", 1), ("{\"a\"", 4), ("{\"a\":", 5), ("{\"a\":1", 6), ("{\"a\":1,", 7),
        ("[1,2", 4), ("[1,", 3), ("\"abc", 0), ("tru", 0), ("fals", 0), ("nul", 0), ("[\"a\\u00", 5),
    ])
    func truncated(text: String, offset: Int) {
        #expect(parseError(text)?.offset == offset)
    }

    @Test("trailing data is an error", arguments: [
        ("1 2", 2), ("{} x", 3), ("[]]", 2), ("\"a\"\"b\"", 3), ("null null", 5), ("{\"a\":1}}", 7), ("1\u{0}", 1),
    ])
    func trailingData(text: String, offset: Int) {
        let error = parseError(text)
        #expect(error?.offset == offset)
        #expect(error?.reason.contains("after the value") == true)
    }

    @Test("other grammar errors", arguments: [
        ("[1,]", 3), ("{\"a\":1,}", 7), ("{a:1}", 1), ("{'a':1}", 1), ("['a']", 1), ("{\"a\" 1}", 5),
        ("[1 2]", 3), ("{\"a\":1 \"b\":2}", 7), ("True", 0), ("nulL", 0), ("[,1]", 1), ("{,}", 1), ("//", 0),
    ])
    func grammarErrors(text: String, offset: Int) {
        #expect(parseError(text)?.offset == offset)
    }

    @Test func nestingUpToTheMaximumDepthIsAccepted() throws {
        let depth = JSONValue.maximumDepth
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try parse(arrays) }
        let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(throws: Never.self) { try parse(objects) }
    }

    @Test func nestingDeeperThanTheMaximumIsAnError() {
        let depth = JSONValue.maximumDepth + 1
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let error = parseError(arrays)
        #expect(error?.offset == JSONValue.maximumDepth)
        #expect(error?.reason.contains("deeper") == true)
        let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(parseError(objects)?.offset == JSONValue.maximumDepth * 5)
        // Far deeper input (and unbalanced input) fails the same way instead of overflowing the stack.
        #expect(parseError(String(repeating: "[", count: 1_000_000))?.offset == JSONValue.maximumDepth)
        #expect(parseError(String(repeating: "[{\"k\":", count: 200_000))?.offset != nil)
    }

    @Test func errorDescriptionNamesTheOffset() {
        let error = JSONError("unterminated string", at: 12)
        #expect(error.description == "invalid JSON at byte 12: unterminated string")
    }

    // MARK: Accessors

    @Test func accessors() {
        let value: JSONValue = ["s": "x", "i": 3, "d": 2.5, "b": true, "a": [1], "n": .null]
        #expect(value["s"]?.stringValue == "x")
        #expect(value["i"]?.intValue == 3)
        #expect(value["i"]?.doubleValue == 3)
        #expect(value["d"]?.doubleValue == 2.5)
        #expect(value["d"]?.intValue == nil)
        #expect(value["b"]?.boolValue == true)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["n"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(JSONValue.int(1)["x"] == nil)
        var edited = value
        edited["s"] = "y"
        edited["n"] = nil
        #expect(edited["s"] == "y")
        #expect(edited.objectValue?.keys.contains("n") == false)
        var notAnObject: JSONValue = [1, 2]
        notAnObject["x"] = 1
        #expect(notAnObject == [1, 2])
        #expect(["b": 1, "b": 2] as JSONValue == ["b": 2])
        #expect(JSONValue.double(1).typeName == "number")
        #expect(JSONValue.int(1).typeName == "integer")
    }

    // MARK: Codable bridging

    struct Todo: Codable, Equatable {
        var id: String
        var title: String
        var done: Bool
        var priority: Int
        var score: Double
        var tags: [String]
        var note: String?
        var owner: Owner

        struct Owner: Codable, Equatable {
            var name: String
            var age: Int
        }
    }

    static let todo = Todo(id: "t1", title: "Buy \"milk\"\n", done: false, priority: 2, score: 0.25,
                           tags: ["home", "é"], note: nil, owner: .init(name: "Ann", age: 40))

    @Test func encodingAModelGivesAnExactObject() throws {
        let value = try JSONValue(encoding: Self.todo)
        #expect(value["id"] == "t1")
        #expect(value["title"] == "Buy \"milk\"\n")
        #expect(value["done"] == false)
        #expect(value["priority"] == .int(2))
        #expect(value["score"] == .double(0.25))
        #expect(value["tags"] == ["home", "é"])
        #expect(value["owner"] == ["name": "Ann", "age": 40])
        #expect(value["note"] == nil)
    }

    @Test func decodingAModelFromAValue() throws {
        let value = try JSONValue(encoding: Self.todo)
        #expect(try value.decode(Todo.self) == Self.todo)
        let decoded: Todo = try value.decode()
        #expect(decoded == Self.todo)
        var withNote = value
        withNote["note"] = "remember"
        #expect(try withNote.decode(Todo.self).note == "remember")
        // Whole numbers written as doubles still decode into Double properties.
        withNote["score"] = .double(3)
        #expect(try withNote.decode(Todo.self).score == 3)
    }

    @Test func decodingAMismatchThrowsADecodingError() throws {
        var value = try JSONValue(encoding: Self.todo)
        value["priority"] = "high"
        #expect(throws: DecodingError.self) { try value.decode(Todo.self) }
        value = ["id": "x"]
        #expect(throws: DecodingError.self) { try value.decode(Todo.self) }
    }

    @Test func jsonValueIsItselfCodable() throws {
        let value: JSONValue = ["a": [1, "two", true, .null, ["b": 2.5]], "c": "d"]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONValue(parsing: data) == value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
        struct Wrapper: Codable, Equatable { var payload: JSONValue; var count: Int }
        let wrapper = Wrapper(payload: value, count: 3)
        #expect(try JSONDecoder().decode(Wrapper.self, from: JSONEncoder().encode(wrapper)) == wrapper)
        #expect(try JSONValue(encoding: wrapper)["payload"] == value)
    }

    @Test func encodingATopLevelScalarOrArray() throws {
        #expect(try JSONValue(encoding: 5) == .int(5))
        #expect(try JSONValue(encoding: "s") == "s")
        #expect(try JSONValue(encoding: [1, 2]) == [1, 2])
        #expect(try JSONValue(encoding: Optional<Int>.none) == .null)
    }
}
