import Foundation

/// Reads a Kinto list answer, `{"data":[…records…], …}`, into changes without building a
/// ``JSONValue`` tree per record: each record is checked and written in the store's
/// canonical form (``CanonicalJSON``) with `last_modified` left out, and kept as text
/// (``RemoteChange/init(id:recordText:version:)``). A record only a tree can order
/// (``CanonicalJSON/NeedsTree``) is read the tree way, alone, with the same result; so is a
/// page whose shape is not `{"data":[…]}` with `data` once.
package enum KintoPage {
    /// The page's records as changes (one per id, the highest `last_modified` kept), or nil
    /// when the body is not an object with a `data` array of records with an `id` and an
    /// integer `last_modified`.
    package static func changes(_ body: Data) -> [RemoteChange]? {
        do {
            return try latest(body.withUnsafeBytes { raw in
                var reader = CanonicalJSON(bytes: raw.assumingMemoryBound(to: UInt8.self))
                return try records(&reader)
            })
        } catch is CanonicalJSON.NeedsTree {
            guard let items = (try? JSONValue(parsing: body))?["data"]?.arrayValue else { return nil }
            return changes(of: items)
        } catch {
            return nil
        }
    }

    /// Parsed records as changes (one per id, the highest `last_modified` kept), or nil when
    /// one has no `id` or integer `last_modified`.
    static func changes(of items: [JSONValue]) -> [RemoteChange]? {
        try? latest(items.map(change(of:)))
    }

    /// A malformed or unexpected page.
    struct Unreadable: Error {}

    /// Reads the top-level object; members other than `data` are checked and skipped.
    private static func records(_ reader: inout CanonicalJSON) throws -> [(RemoteChange, Int64)] {
        var found: [(RemoteChange, Int64)]?
        var skipped: [UInt8] = []
        reader.skipWhitespace()
        try reader.expect(UInt8(ascii: "{"), "an object")
        try reader.enter()
        reader.skipWhitespace()
        if reader.consume(UInt8(ascii: "}")) { throw Unreadable() }
        repeat {
            reader.skipWhitespace()
            guard reader.current == UInt8(ascii: "\"") else { throw Unreadable() }
            skipped.removeAll(keepingCapacity: true)
            try reader.value(into: &skipped)
            let isData = skipped.elementsEqual(#""data""#.utf8)
            reader.skipWhitespace()
            try reader.expect(UInt8(ascii: ":"), "':' after key")
            reader.skipWhitespace()
            if isData {
                // A repeated "data": a tree keeps the last one.
                guard found == nil else { throw CanonicalJSON.NeedsTree() }
                found = try items(&reader)
            } else {
                skipped.removeAll(keepingCapacity: true)
                try reader.value(into: &skipped)
            }
            reader.skipWhitespace()
        } while reader.consume(UInt8(ascii: ","))
        try reader.expect(UInt8(ascii: "}"), "',' or '}' in object")
        reader.skipWhitespace()
        guard reader.current == nil, let found else { throw Unreadable() }
        return found
    }

    /// Reads the `data` array, record by record.
    private static func items(_ reader: inout CanonicalJSON) throws -> [(RemoteChange, Int64)] {
        guard reader.consume(UInt8(ascii: "[")) else { throw CanonicalJSON.NeedsTree() }
        try reader.enter()
        var changes: [(RemoteChange, Int64)] = []
        reader.skipWhitespace()
        if reader.consume(UInt8(ascii: "]")) { return changes }
        repeat {
            reader.skipWhitespace()
            // Anything but an object goes the tree way, which names the problem.
            guard reader.current == UInt8(ascii: "{") else { throw CanonicalJSON.NeedsTree() }
            changes.append(try record(&reader))
            reader.skipWhitespace()
        } while reader.consume(UInt8(ascii: ","))
        try reader.expect(UInt8(ascii: "]"), "',' or ']' in array")
        return changes
    }

    /// Reads the record object at the reader's position, leaving the reader after it: checked
    /// and kept as canonical text, or, when only a tree can order it, read the tree way alone.
    ///
    /// - Throws: ``JSONError`` for malformed text; `Unreadable` for a record without an `id`
    ///   or an integer `last_modified`.
    static func record(_ reader: inout CanonicalJSON) throws -> (RemoteChange, Int64) {
        let (start, depth) = (reader.index, reader.depth)
        do {
            var text: [UInt8] = []
            text.reserveCapacity(192)
            let top = try reader.record(into: &text, dropping: "last_modified")
            guard let id = top.id, let lastModified = top.lastModified.flatMap(version) else { throw CanonicalJSON.NeedsTree() }
            let isTombstone = top.deletedIsTrue && top.onlyTombstoneKeys
            return (isTombstone ? RemoteChange(id: id, record: nil, version: String(lastModified))
                                : RemoteChange(id: id, canonicalText: text, version: String(lastModified)),
                    lastModified)
        } catch is CanonicalJSON.NeedsTree {
            // This record alone goes the tree way (a key only a tree orders, or no usable id).
            var parser = JSONParser(bytes: reader.bytes)
            parser.index = start
            parser.depth = depth
            let change = try change(of: try parser.parseOneValue())
            reader.resume(at: parser.index, depth: depth)
            return change
        }
    }

    /// `last_modified` from its canonical text, as ``KintoRecord/lastModified(_:)`` reads it.
    private static func version(_ text: [UInt8]) -> Int64? {
        guard let value = try? JSONValue(parsing: text) else { return nil }
        return KintoRecord.lastModified(["last_modified": value])
    }

    /// One record read the tree way.
    private static func change(of item: JSONValue) throws -> (RemoteChange, Int64) {
        guard let object = item.objectValue, let id = object["id"]?.stringValue,
              let lastModified = KintoRecord.lastModified(object) else { throw Unreadable() }
        // Not `cond ? nil : value`: JSONValue is nil-literal-expressible, that would be `.null`.
        var record: JSONValue?
        if !KintoRecord.isTombstone(object) { record = KintoRecord.strip(item) }
        return (RemoteChange(id: id, record: record, version: String(lastModified)), lastModified)
    }

    /// One change per id: the one with the highest version, in page order (changes read
    /// by `KintoPageReader`, whose versions are `last_modified` integers).
    package static func latest(_ changes: [RemoteChange]) -> [RemoteChange] {
        latest(changes.map { ($0, Int64($0.version) ?? .min) })
    }

    /// One change per id: the one with the highest `last_modified`, in page order.
    private static func latest(_ parsed: [(RemoteChange, Int64)]) -> [RemoteChange] {
        var highest: [String: Int64] = [:]
        highest.reserveCapacity(parsed.count)
        for (change, lastModified) in parsed { highest[change.id] = max(highest[change.id] ?? .min, lastModified) }
        var kept = Set<String>()
        kept.reserveCapacity(parsed.count)
        return parsed.compactMap { change, lastModified in
            guard lastModified == highest[change.id], kept.insert(change.id).inserted else { return nil }
            return change
        }
    }
}
