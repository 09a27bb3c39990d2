import Foundation

/// Reads a Kinto list answer, `{"data":[…records…], …}`, as its bytes arrive, handing out
/// each record as soon as its last byte is in: memory holds the record being read and the
/// unread rest of the last chunk, never the page.
///
/// Feed it chunks with ``read(_:into:)`` and call ``finish()`` after the last one. Each
/// record is found by scanning for the end of its object (strings and nesting tracked
/// across chunks) and then read by ``KintoPage/record(_:)``, exactly as a whole page is. A
/// record whose id came earlier on the page with a higher or equal `last_modified` is left
/// out, so the page yields one change per id, the latest, as ``KintoPage/changes(_:)`` does
/// (a later, higher one is yielded again and replaces it).
///
/// Anything else than that shape — malformed JSON, a record without an `id` or integer
/// `last_modified`, a second `data` member, a body that ends early — is a ``JSONError``
/// naming the byte offset in the body.
package struct KintoPageReader {
    private enum Stage {
        case start, firstKey, key, colon, member, afterMember, dataStart, firstItem, item, afterItem, end
    }

    /// Unread bytes; `position` is the reading position in them.
    private var pending: [UInt8] = []
    private var position = 0
    /// Bytes dropped from the front of `pending` so far (offsets in errors count from the body's start).
    private var dropped = 0
    private var stage = Stage.start
    private var sawData = false
    /// The scan of the value starting at `position`, when it is not complete yet.
    private var scan = ValueScan()
    /// The highest `last_modified` of each id read on this page.
    private var latest: [String: Int64] = [:]

    /// A reader at the start of a body.
    package init() {}

    /// Reads a chunk, appending the records it completed to `changes`.
    ///
    /// - Throws: ``JSONError`` when the body is not a Kinto list answer.
    package mutating func read(_ chunk: some Sequence<UInt8>, into changes: inout [RemoteChange]) throws {
        if position > 0, position * 2 >= pending.count {
            pending.removeFirst(position)
            dropped += position
            scan.shift(by: position)
            position = 0
        }
        pending.append(contentsOf: chunk)
        try advance(into: &changes)
    }

    /// Checks that the body ended where a Kinto list answer ends.
    ///
    /// - Throws: ``JSONError`` for a body cut short or with data after the object.
    package func finish() throws {
        var index = position
        while index < pending.count, Self.isWhitespace(pending[index]) { index += 1 }
        guard case .end = stage else { throw JSONError("the answer ended early", at: dropped + index) }
        guard index == pending.count else { throw JSONError("unexpected data after the object", at: dropped + index) }
        guard sawData else { throw JSONError("the answer has no \"data\" member", at: dropped + index) }
    }

    private mutating func advance(into changes: inout [RemoteChange]) throws {
        while true {
            if stage != .end, !skipWhitespace() { return }
            switch stage {
            case .start:
                try expect(UInt8(ascii: "{"), "an object")
                stage = .firstKey
            case .firstKey:
                // `{}` is an object without members: ``finish()`` says which one it lacks.
                stage = try peek(UInt8(ascii: "}")) ? .end : .key
            case .key:
                guard pending[position] == UInt8(ascii: "\"") else { throw error("expected a key") }
                guard let end = try scanValue() else { return }
                guard case .string(let name) = try parse(end) else { throw error("expected a key") }
                if name == "data", sawData { throw error("a second \"data\" member") }
                valueIsData = name == "data"
                sawData = sawData || valueIsData
                position = end
                stage = .colon
            case .colon:
                try expect(UInt8(ascii: ":"), "':' after key")
                stage = valueIsData ? .dataStart : .member
            case .member:
                guard let end = try scanValue() else { return }
                _ = try parse(end)   // checked, skipped
                position = end
                stage = .afterMember
            case .dataStart:
                try expect(UInt8(ascii: "["), "an array of records")
                stage = .firstItem
            case .firstItem:
                stage = try peek(UInt8(ascii: "]")) ? .afterMember : .item
            case .item:
                guard pending[position] == UInt8(ascii: "{") else { throw error("expected a record object") }
                // Read at once when its bytes are all in (nearly always); else (its end has not
                // arrived, or it is malformed) find its end first, then read it or say why not.
                if scan.isActive || !readRecordInPlace(into: &changes) {
                    guard let end = try scanValue() else { return }
                    try record(end, into: &changes)
                }
                stage = .afterItem
            case .afterItem:
                if try peek(UInt8(ascii: ",")) { stage = .item } else {
                    try expect(UInt8(ascii: "]"), "',' or ']' in array")
                    stage = .afterMember
                }
            case .afterMember:
                if try peek(UInt8(ascii: ",")) { stage = .key } else {
                    try expect(UInt8(ascii: "}"), "',' or '}' in object")
                    stage = .end
                }
            case .end:
                // Only whitespace may follow the object: anything else is refused as it
                // arrives, not kept until ``finish()``.
                if skipWhitespace() { throw error("unexpected data after the object") }
                return
            }
        }
    }

    /// Whether the member whose key was just read is `data`.
    private var valueIsData = false

    /// Reads the record in `pending[position..<end]` and moves past it.
    private mutating func record(_ end: Int, into changes: inout [RemoteChange]) throws {
        let offset = dropped + position
        let (change, lastModified): (RemoteChange, Int64) = try pending.withUnsafeBufferPointer { all in
            var reader = CanonicalJSON(bytes: UnsafeBufferPointer(rebasing: all[position..<end]))
            reader.resume(at: 0, depth: 2)
            do {
                return try KintoPage.record(&reader)
            } catch let error as JSONError {
                throw JSONError(error.reason, at: offset + error.offset)
            } catch {
                throw JSONError("a record without an \"id\" or an integer \"last_modified\"", at: offset)
            }
        }
        position = end
        keep(change, lastModified, into: &changes)
    }

    /// Reads the record at `position` from the unread bytes, without knowing where it ends;
    /// false, and nothing read, when that fails (cut off by the chunk's end, or malformed:
    /// ``record(_:into:)`` then reads it within its scanned bounds and names the error).
    private mutating func readRecordInPlace(into changes: inout [RemoteChange]) -> Bool {
        let start = position
        guard let (change, lastModified, end) = try? pending.withUnsafeBufferPointer({ all in
            var reader = CanonicalJSON(bytes: UnsafeBufferPointer(rebasing: all[start...]))
            reader.resume(at: 0, depth: 2)
            let (change, lastModified) = try KintoPage.record(&reader)
            return (change, lastModified, start + reader.index)
        }) else { return false }
        position = end
        keep(change, lastModified, into: &changes)
        return true
    }

    /// Keeps a change unless its id came earlier on this page with a higher or equal `last_modified`.
    private mutating func keep(_ change: RemoteChange, _ lastModified: Int64, into changes: inout [RemoteChange]) {
        if let known = latest[change.id], known >= lastModified { return }
        latest[change.id] = lastModified
        changes.append(change)
    }

    /// Parses the complete value in `pending[position..<end]`.
    private func parse(_ end: Int) throws -> JSONValue {
        let offset = dropped + position
        return try pending.withUnsafeBufferPointer { all in
            var parser = JSONParser(bytes: UnsafeBufferPointer(rebasing: all[position..<end]))
            parser.depth = 1
            do {
                let value = try parser.parseOneValue()
                guard parser.index == end - position else { throw JSONError("unexpected data after the value", at: parser.index) }
                return value
            } catch let error as JSONError {
                throw JSONError(error.reason, at: offset + error.offset)
            }
        }
    }

    /// The end of the value at `position` once all its bytes are in; nil while more are needed.
    private mutating func scanValue() throws -> Int? {
        if !scan.isActive { scan = ValueScan(start: position, first: pending[position]) }
        guard let end = try scan.advance(pending, dropped: dropped) else { return nil }
        scan = ValueScan()
        return end
    }

    /// Skips whitespace; false when the bytes ran out.
    private mutating func skipWhitespace() -> Bool {
        while position < pending.count, Self.isWhitespace(pending[position]) { position += 1 }
        return position < pending.count
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard pending[position] == byte else { throw error("expected \(what)") }
        position += 1
    }

    /// Steps over `byte` when it is next; false when another byte is next.
    /// Needs a byte at `position` (the caller skipped whitespace).
    private mutating func peek(_ byte: UInt8) throws -> Bool {
        guard pending[position] == byte else { return false }
        position += 1
        return true
    }

    private func error(_ reason: String) -> JSONError { JSONError(reason, at: dropped + position) }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}

/// Finds where one JSON value ends in bytes that arrive piece by piece: tracks strings,
/// escapes and nesting (at most ``JSONValue/maximumDepth`` deep) from where it stopped.
/// It checks only enough to find the end; the value is read properly afterwards.
struct ValueScan {
    private(set) var isActive = false
    private var start = 0
    private var index = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var isScalar = false

    init() {}

    init(start: Int, first: UInt8) {
        isActive = true
        self.start = start
        index = start
        isScalar = first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && first != UInt8(ascii: "\"")
    }

    /// The reader dropped `count` bytes before the value.
    mutating func shift(by count: Int) {
        guard isActive else { return }
        start -= count
        index -= count
    }

    /// Scans on; the index just after the value, or nil when its end has not arrived.
    mutating func advance(_ bytes: [UInt8], dropped: Int) throws -> Int? {
        while index < bytes.count {
            let byte = bytes[index]
            if isScalar {
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
                    || KintoPageReader.isWhitespace(byte) { return index }
                index += 1
                continue
            }
            index += 1
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return index }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth > JSONValue.maximumDepth {
                    throw JSONError("nesting deeper than \(JSONValue.maximumDepth)", at: dropped + index - 1)
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth <= 0 { return index }
            default: break
            }
        }
        return nil
    }
}
