import Foundation

extension JSONValue {
    /// The deepest nesting of arrays and objects that the parser accepts.
    public static let maximumDepth = 256

    /// Parses JSON text (UTF-8), keeping integers and doubles apart.
    ///
    /// - Throws: ``JSONError`` naming the byte offset for malformed text, invalid
    ///   UTF-8, nesting deeper than ``maximumDepth`` or trailing data.
    public init(parsing text: String) throws {
        var text = text
        self = try text.withUTF8 { bytes in
            var parser = JSONParser(bytes: bytes)
            return try parser.parseDocument()
        }
    }

    /// Parses JSON from UTF-8 bytes.
    ///
    /// - Throws: ``JSONError``.
    public init(parsing data: some ContiguousBytes) throws {
        self = try data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.assumingMemoryBound(to: UInt8.self))
            return try parser.parseDocument()
        }
    }
}

/// A strict RFC 8259 parser over a byte buffer.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses one value at ``index`` (``depth`` levels deep), leaving ``index`` after it.
    mutating func parseOneValue() throws -> JSONValue {
        try parseValue()
    }

    mutating func parseDocument() throws -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw JSONError("unexpected data after the value", at: index) }
        return value
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws -> JSONValue {
        guard index < bytes.count else { throw JSONError("unexpected end of input", at: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw JSONError("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'", at: index)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw JSONError("invalid literal", at: start) }
        let p = literal.utf8Start
        for i in 0..<count where bytes[index + i] != p[i] { throw JSONError("invalid literal", at: start) }
        index += count
    }

    private mutating func enter() throws {
        depth += 1
        if depth > JSONValue.maximumDepth {
            throw JSONError("nesting deeper than \(JSONValue.maximumDepth)", at: index)
        }
    }

    private mutating func parseObject() throws -> JSONValue {
        try enter()
        index += 1
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1; depth -= 1; return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw JSONError("expected a string key", at: index)
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw JSONError("expected ':' after key", at: index)
            }
            index += 1
            skipWhitespace()
            object[key] = try parseValue()
            skipWhitespace()
            guard index < bytes.count else { throw JSONError("unterminated object", at: index) }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; depth -= 1; return .object(object) }
            throw JSONError("expected ',' or '}' in object", at: index)
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        try enter()
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1; depth -= 1; return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw JSONError("unterminated array", at: index) }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; depth -= 1; return .array(array) }
            throw JSONError("expected ',' or ']' in array", at: index)
        }
    }

    private mutating func parseString() throws -> String {
        let start = index
        index += 1
        // Fast path: no escapes. ASCII alone is well-formed UTF-8, so such a string (most
        // names and values) skips the validating initializer, which is not specialized for the
        // caller and costs a generic call per string.
        var scan = index
        var ascii = true
        while scan < bytes.count {
            let b = bytes[scan]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[index..<scan])
                let decoded = ascii ? String(decoding: slice, as: UTF8.self) : UTF8Validation.string(slice)
                guard let s = decoded else { throw JSONError("invalid UTF-8 in string", at: start) }
                index = scan + 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw JSONError("control character in string", at: scan) }
            ascii = ascii && b < 0x80
            scan += 1
        }
        var buffer: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[index..<scan]))
        index = scan
        try JSONLexing.decodeString(bytes, &index, start: start, into: &buffer)
        guard let s = UTF8Validation.string(buffer) else { throw JSONError("invalid UTF-8 in string", at: start) }
        return s
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = index
        let isInteger = try JSONLexing.scanNumber(bytes, &index)
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let i = Int64(text) { return .int(i) }
        guard let d = Double(text), d.isFinite else { throw JSONError("number out of range", at: start) }
        return .double(d)
    }
}
