import Foundation

/// Writes JSON text straight into the store's canonical form — the exact bytes of
/// `JSONValue(parsing: text).serialized()`: compact, object keys sorted, integers as
/// `String(Int64)`, doubles as `Double.description`, strings escaped as ``JSONValue``
/// writes them — without building a ``JSONValue`` tree.
///
/// Pulled records take this path: a record's text is checked and stored as the server sent
/// it whenever it already is canonical (Kinto writes compact JSON), and only reordered or
/// re-escaped where it is not. It accepts exactly the documents ``JSONParser`` accepts; a
/// document it cannot order the way `serialized()` does (a key that is not printable ASCII,
/// whose order Swift's `String` comparison decides, or a repeated key, of which a tree keeps
/// the last) throws ``CanonicalJSON/NeedsTree``, and the caller parses it into a tree instead.
package struct CanonicalJSON {
    /// The document needs the tree path (see the type's description). The transcoder stops at
    /// what only a tree can order, so the rest is unread: the tree path reads it, and refuses it
    /// when it is malformed.
    package struct NeedsTree: Error {}

    /// What a record-level transcoding learned about the record's top-level members.
    package struct TopLevel {
        /// The decoded `id` member, if it is a string.
        package var id: String?
        /// The dropped member's canonical text (`last_modified`), if present.
        package var lastModified: [UInt8]?
        /// Whether `deleted` is `true`.
        package var deletedIsTrue = false
        /// Whether every key is one of `id`, `last_modified`, `deleted` (a Kinto tombstone's keys).
        package var onlyTombstoneKeys = true
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index: Int
    /// How many arrays and objects enclose the reading position.
    private(set) var depth = 0
    /// Bytes of the current object's members, reused while reordering.
    private var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    /// Transcodes a whole document (nothing but whitespace may follow the value).
    ///
    /// - Throws: ``JSONError`` for malformed text, ``NeedsTree``.
    package static func canonical(_ text: some ContiguousBytes) throws -> [UInt8] {
        try document(text) { reader, out in try reader.value(into: &out) }.text
    }

    /// Transcodes a whole document whose one value `read` transcodes (nothing but whitespace
    /// may surround it); returns the text and what `read` returned.
    ///
    /// - Throws: ``JSONError`` for malformed text, ``NeedsTree``, or what `read` throws.
    package static func document<T>(_ text: some ContiguousBytes,
                            _ read: (inout CanonicalJSON, inout [UInt8]) throws -> T) throws -> (text: [UInt8], value: T) {
        try text.withUnsafeBytes { raw in
            var reader = CanonicalJSON(bytes: raw.assumingMemoryBound(to: UInt8.self))
            var out: [UInt8] = []
            out.reserveCapacity(raw.count)
            reader.skipWhitespace()
            let value = try read(&reader, &out)
            reader.skipWhitespace()
            guard reader.index == raw.count else { throw JSONError("unexpected data after the value", at: reader.index) }
            return (out, value)
        }
    }

    // MARK: - Reading

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The byte at the reading position, or nil at the end.
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Goes on at `index`, `depth` levels deep: after a value the caller read another way.
    mutating func resume(at index: Int, depth: Int) {
        self.index = index
        self.depth = depth
    }

    /// Steps over `byte` if it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    /// Steps over one expected byte.
    mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard index < bytes.count, bytes[index] == byte else { throw JSONError("expected \(what)", at: index) }
        index += 1
    }

    /// Transcodes one value at the reading position, appending its canonical text.
    mutating func value(into out: inout [UInt8]) throws {
        guard index < bytes.count else { throw JSONError("unexpected end of input", at: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): _ = try object(into: &out, dropping: nil, topLevel: false)
        case UInt8(ascii: "["): try array(into: &out)
        case UInt8(ascii: "\""): try string(into: &out)
        case UInt8(ascii: "t"): try literal("true", into: &out)
        case UInt8(ascii: "f"): try literal("false", into: &out)
        case UInt8(ascii: "n"): try literal("null", into: &out)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(into: &out)
        default: throw JSONError("unexpected character", at: index)
        }
    }

    /// Transcodes the object at the reading position as a record: `dropping` (a top-level
    /// key) is left out, and the members a Kinto record is read by are reported.
    package mutating func record(into out: inout [UInt8], dropping: String?) throws -> TopLevel {
        guard current == UInt8(ascii: "{") else { throw JSONError("expected an object", at: index) }
        return try object(into: &out, dropping: dropping.map { Array($0.utf8) }, topLevel: true) ?? TopLevel()
    }

    private mutating func literal(_ literal: StaticString, into out: inout [UInt8]) throws {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw JSONError("invalid literal", at: index) }
        let p = literal.utf8Start
        for i in 0..<count where bytes[index + i] != p[i] { throw JSONError("invalid literal", at: index) }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + count]))
        index += count
    }

    /// Counts one level of nesting (also for containers the caller reads itself).
    mutating func enter() throws {
        depth += 1
        if depth > JSONValue.maximumDepth { throw JSONError("nesting deeper than \(JSONValue.maximumDepth)", at: index) }
    }

    private mutating func array(into out: inout [UInt8]) throws {
        try enter()
        index += 1
        out.append(UInt8(ascii: "["))
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1; depth -= 1; out.append(UInt8(ascii: "]")); return
        }
        while true {
            skipWhitespace()
            try value(into: &out)
            skipWhitespace()
            guard let b = current else { throw JSONError("unterminated array", at: index) }
            index += 1
            if b == UInt8(ascii: ",") { out.append(b); continue }
            if b == UInt8(ascii: "]") { out.append(b); depth -= 1; return }
            throw JSONError("expected ',' or ']' in array", at: index - 1)
        }
    }

    /// One member as written: its key's bytes (unescaped printable ASCII) and the whole member.
    private struct Member {
        var key: Range<Int>
        var whole: Range<Int>
    }

    private mutating func object(into out: inout [UInt8], dropping: [UInt8]?, topLevel: Bool) throws -> TopLevel? {
        try enter()
        index += 1
        var top: TopLevel? = topLevel ? TopLevel() : nil
        let start = out.count
        out.append(UInt8(ascii: "{"))
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1; depth -= 1; out.append(UInt8(ascii: "}")); return top
        }
        var members: [Member] = []
        members.reserveCapacity(8)   // one allocation for a usual record, not four growths
        var sorted = true
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw JSONError("expected a string key", at: index) }
            if !members.isEmpty { out.append(UInt8(ascii: ",")) }
            let memberStart = out.count
            let key = try plainKey(into: &out)
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after key")
            out.append(UInt8(ascii: ":"))
            skipWhitespace()
            let valueStart = out.count
            try value(into: &out)
            if top != nil {
                let name = out[key]
                if let dropping, name.count == dropping.count, name.elementsEqual(dropping) {
                    top?.lastModified = Array(out[valueStart...])
                    out.removeSubrange((members.isEmpty ? memberStart : memberStart - 1)...)
                    if try closes(members, sorted: sorted, into: &out, start: start) { return top }
                    continue
                }
                top?.note(name: name, value: out[valueStart...])
            }
            let member = Member(key: key, whole: memberStart..<out.count)
            if let last = members.last, !Self.less(out[last.key], out[member.key]) { sorted = false }
            members.append(member)
            if try closes(members, sorted: sorted, into: &out, start: start) { return top }
        }
    }

    /// Reads what follows a member: `,` (false) or `}` (true, after ordering the members).
    private mutating func closes(_ members: [Member], sorted: Bool, into out: inout [UInt8], start: Int) throws -> Bool {
        skipWhitespace()
        guard let b = current else { throw JSONError("unterminated object", at: index) }
        index += 1
        if b == UInt8(ascii: ",") { return false }
        guard b == UInt8(ascii: "}") else { throw JSONError("expected ',' or '}' in object", at: index - 1) }
        depth -= 1
        if !sorted { try reorder(members, in: &out, from: start) }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// Rewrites the members after `start` (the object's `{`) in key order.
    private mutating func reorder(_ members: [Member], in out: inout [UInt8], from start: Int) throws {
        let ordered = members.sorted { Self.less(out[$0.key], out[$1.key]) }
        for (a, b) in zip(ordered, ordered.dropFirst()) where out[a.key].elementsEqual(out[b.key]) { throw NeedsTree() }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: out[(start + 1)...])
        let base = start + 1
        out.removeSubrange(base...)
        for (i, member) in ordered.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: scratch[(member.whole.lowerBound - base)..<(member.whole.upperBound - base)])
        }
    }

    private static func less(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        a.lexicographicallyPrecedes(b)
    }

    /// Writes a key that is printable ASCII without `"` or `\` (its escaped and unescaped
    /// bytes are the same, and byte order is `String` order); returns its bytes' range in `out`.
    private mutating func plainKey(into out: inout [UInt8]) throws -> Range<Int> {
        let start = index
        index += 1
        var scan = index
        while scan < bytes.count {
            let b = bytes[scan]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") || b >= 0x7F {
                // Check the key (malformed text is an error, not a tree), then take the tree path.
                index = start
                var ignored: [UInt8] = []
                try string(into: &ignored)
                throw NeedsTree()
            }
            if b < 0x20 { throw JSONError("control character in string", at: scan) }
            scan += 1
        }
        guard scan < bytes.count else { throw JSONError("unterminated string", at: start) }
        out.append(UInt8(ascii: "\""))
        let keyStart = out.count
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<scan]))
        let keyEnd = out.count
        out.append(UInt8(ascii: "\""))
        index = scan + 1
        return keyStart..<keyEnd
    }

    // MARK: - Strings

    private mutating func string(into out: inout [UInt8]) throws {
        let start = index
        index += 1
        var scan = index
        var ascii = true
        while scan < bytes.count {
            let b = bytes[scan]
            if b == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[index..<scan])
                if !ascii, !UTF8Validation.isValid(content) { throw JSONError("invalid UTF-8 in string", at: start) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...scan]))
                index = scan + 1
                return
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw JSONError("control character in string", at: scan) }
            if b >= 0x80 { ascii = false }
            scan += 1
        }
        // Escapes: decode as the parser does, then write as `JSONValue.writeString` does.
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[index..<scan]))
        index = scan
        try JSONLexing.decodeString(bytes, &index, start: start, into: &decoded)
        guard decoded.withUnsafeBufferPointer(UTF8Validation.isValid) else { throw JSONError("invalid UTF-8 in string", at: start) }
        Self.writeEscaped(decoded, into: &out)
    }

    /// Writes decoded string bytes quoted and escaped exactly as `JSONValue.writeString`.
    static func writeEscaped(_ s: [UInt8], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(0x5C); out.append(b)
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    // MARK: - Numbers

    private mutating func number(into out: inout [UInt8]) throws {
        let start = index
        let isInteger = try JSONLexing.scanNumber(bytes, &index)
        let span = UnsafeBufferPointer(rebasing: bytes[start..<index])
        let digits = span.count - (span[0] == UInt8(ascii: "-") ? 1 : 0)
        // An integer of at most 18 digits fits in Int64 and `String(Int64)` writes it back as
        // it came, but for "-0".
        if isInteger, digits <= 18 {
            if span.count == 2, span[0] == UInt8(ascii: "-"), span[1] == UInt8(ascii: "0") {
                out.append(UInt8(ascii: "0"))
            } else {
                out.append(contentsOf: span)
            }
            return
        }
        let text = String(decoding: span, as: UTF8.self)
        if isInteger, let i = Int64(text) { out.append(contentsOf: String(i).utf8); return }
        guard let d = Double(text), d.isFinite else { throw JSONError("number out of range", at: start) }
        out.append(contentsOf: d.description.utf8)
    }
}

extension CanonicalJSON.TopLevel {
    /// Notes a top-level member a Kinto record is read by.
    mutating func note(name: ArraySlice<UInt8>, value: ArraySlice<UInt8>) {
        if Self.equal(name, "id") {
            // A canonical string without escapes is its own content; one with escapes is decoded.
            if value.first == UInt8(ascii: "\""), !value.contains(UInt8(ascii: "\\")) {
                id = String(decoding: value.dropFirst().dropLast(), as: UTF8.self)
            } else if value.first == UInt8(ascii: "\"") {
                id = (try? JSONValue(parsing: Array(value)))?.stringValue
            }
        } else if Self.equal(name, "deleted") {
            deletedIsTrue = Self.equal(value, "true")
        } else if !Self.equal(name, "last_modified") {
            onlyTombstoneKeys = false
        }
    }

    /// Whether the bytes are `text`'s UTF-8 (a length check first: most keys differ there;
    /// `elementsEqual` against a `String.UTF8View` cost about 500 instructions a call).
    private static func equal(_ bytes: ArraySlice<UInt8>, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count == count else { return false }
        return bytes.withUnsafeBufferPointer { b in
            let t = text.utf8Start
            for i in 0..<count where b[i] != t[i] { return false }
            return true
        }
    }
}
