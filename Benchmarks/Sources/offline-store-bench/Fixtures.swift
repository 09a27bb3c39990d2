import Foundation
import OfflineStore

/// The objects and server pages every scenario uses, built the same way for both sides.
enum Fixtures {
    /// The collection every scenario writes to.
    static let collection = "items"

    /// A fixed-schema descriptor whose `n` field is indexed (for the find scenario).
    static let indexedItems = CollectionDescriptor(collection, fields: [
        FieldSchema("title", .string),
        FieldSchema("done", .boolean),
        FieldSchema("n", .integer, indexed: true),
        FieldSchema("tags", .array),
    ])

    static func id(_ i: Int) -> String { "item-\(i)" }

    /// A small app object (about 90 bytes of JSON).
    static func object(_ i: Int) -> JSONValue {
        ["id": .string(id(i)), "title": .string("Item number \(i)"), "done": .bool(i % 2 == 0),
         "n": .int(Int64(i)), "tags": ["bench", "fixture"]]
    }

    /// The version (Kinto `last_modified`) of object `i` on the simulated server.
    static func version(_ i: Int) -> Int64 { 1_700_000_000_000 + Int64(i) }

    /// The Kinto list pages of objects `0..<count`, `pageSize` per page (``kintoPage(_:)``).
    static func kintoPages(count: Int, pageSize: Int) -> [[UInt8]] {
        stride(from: 0, to: count, by: pageSize).map { kintoPage($0..<min(count, $0 + pageSize)) }
    }

    /// One Kinto list page, `{"data":[…]}`, of objects `range`, each with its `last_modified`.
    static func kintoPage(_ range: Range<Int>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(range.count * 120)
        out.append(contentsOf: #"{"data":["#.utf8)
        for i in range {
            if i > range.lowerBound { out.append(UInt8(ascii: ",")) }
            guard case .object(var o) = object(i) else { continue }
            o["last_modified"] = .int(version(i))
            JSONValue.object(o).write(into: &out)
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// The records of a parsed Kinto page as changes: `last_modified` becomes the version.
    static func changes(ofPage page: [UInt8]) throws -> [RemoteChange] {
        let parsed = try JSONValue(parsing: page)
        guard let records = parsed["data"]?.arrayValue else { throw BenchError("a page without data") }
        return try records.map { record in
            guard var o = record.objectValue, let id = o["id"]?.stringValue,
                  let version = o.removeValue(forKey: "last_modified")?.intValue else {
                throw BenchError("a page record without id or last_modified")
            }
            return RemoteChange(id: id, record: o["deleted"] == .bool(true) ? nil : .object(o), version: String(version))
        }
    }
}

/// A failure of the benchmark program itself.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init(_ label: String) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("offline-store-bench-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
