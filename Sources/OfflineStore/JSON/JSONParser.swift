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
        // Fast path: no escapes.
        var scan = index
        while scan < bytes.count {
            let b = bytes[scan]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[index..<scan])
                guard let s = String(validating: slice, as: UTF8.self) else {
                    throw JSONError("invalid UTF-8 in string", at: start)
                }
                index = scan + 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw JSONError("control character in string", at: scan) }
            scan += 1
        }
        var buffer: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[index..<scan]))
        index = scan
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                guard let s = String(validating: buffer, as: UTF8.self) else {
                    throw JSONError("invalid UTF-8 in string", at: start)
                }
                return s
            }
            if b < 0x20 { throw JSONError("control character in string", at: index) }
            if b != UInt8(ascii: "\\") { buffer.append(b); index += 1; continue }
            index += 1
            guard index < bytes.count else { break }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw JSONError("unpaired surrogate", at: index) }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw JSONError("unpaired surrogate", at: index) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw JSONError("unpaired surrogate", at: index)
                }
                guard let u = Unicode.Scalar(scalar) else { throw JSONError("invalid \\u escape", at: index) }
                buffer.append(contentsOf: String(Character(u)).utf8)
            default:
                throw JSONError("invalid escape", at: index - 1)
            }
        }
        throw JSONError("unterminated string", at: start)
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard bytes.count - index >= 4 else { throw JSONError("truncated \\u escape", at: index) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw JSONError("invalid hex digit in \\u escape", at: index)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw JSONError("invalid number", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw JSONError("leading zero in number", at: start) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw JSONError("invalid fraction", at: index) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw JSONError("invalid exponent", at: index) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let i = Int64(text) { return .int(i) }
        guard let d = Double(text), d.isFinite else { throw JSONError("number out of range", at: start) }
        return .double(d)
    }

    @inline(__always) private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
