import Foundation
import OfflineStore

/// How the workload's items (`item-0` … `item-11`, each with a `counter` and a `created`
/// value) are stored in the server's collection.
///
/// - `kinto`: collection `items`, the item name is the object's id, fields `counter` and `created`.
/// - `rest`: the Rails test app's `customers` (fixed columns, server-assigned ids): the
///   object is found by its `name`, `"<scope> item-3"`, and `email` carries both values,
///   `c<counter>.k<created>@workload.invalid`. The scope keeps runs apart in one database.
enum WorkloadLayout {
    case kinto
    case rest(scope: String)

    /// The collection the items live in.
    var collection: String {
        switch self {
        case .kinto: "items"
        case .rest: "customers"
        }
    }

    /// The whole object for an item (a create or a save).
    func object(_ item: String, counter: Int64, created: Int64) -> [String: JSONValue] {
        switch self {
        case .kinto: ["id": .string(item), "counter": .int(counter), "created": .int(created)]
        case .rest(let scope): ["name": .string("\(scope) \(item)"), "email": .string("c\(counter).k\(created)@workload.invalid")]
        }
    }

    /// The local id of an item's live object, nil when it does not exist.
    func localID(of item: String, in items: ObjectCollection) throws -> String? {
        switch self {
        case .kinto: return try items.find(item) == nil ? nil : item
        case .rest(let scope): return try items.findFirst(where: .equal("name", .string("\(scope) \(item)")))?["id"]?.stringValue
        }
    }

    /// The fields a patch of the counter sends (on REST the email, keeping `created`).
    func counterPatch(_ item: String, value: Int64, in items: ObjectCollection) throws -> [String: JSONValue] {
        switch self {
        case .kinto:
            return ["counter": .int(value)]
        case .rest:
            guard let id = try localID(of: item, in: items), let email = try items.find(id)?["email"]?.stringValue,
                  let created = email.split(separator: "@")[0].split(separator: ".k").last.flatMap({ Int64($0) })
            else { fail("no live object for \(item)") }
            return ["email": .string("c\(value).k\(created)@workload.invalid")]
        }
    }
}
