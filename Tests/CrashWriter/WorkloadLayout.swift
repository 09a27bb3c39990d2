import Foundation
import OfflineStore

/// How the workload's items (`item-0` … `item-11`, each with a `counter` and a `created`
/// value) are stored in the server's collection.
///
/// - `kinto`: collection `items`, the item name is the object's id, fields `counter` and `created`.
/// - `named`: a collection of fixed columns with server-assigned ids (the Rails test app's
///   `customers`, the OData fixture's `Customers`): the object is found by its name field,
///   `"<scope> item-3"`, and its email field carries both values,
///   `c<counter>.k<created>@workload.invalid`. The scope keeps runs apart in one database.
enum WorkloadLayout {
    case kinto
    case named(scope: String, NamedItems)

    /// The collection and field names of a `named` layout.
    struct NamedItems {
        var collection: String
        var name: String
        var email: String

        /// The Rails test app's customers.
        static let rails = NamedItems(collection: "customers", name: "name", email: "email")
        /// The OData fixture's Customers (server-assigned Int32 keys).
        static let odata = NamedItems(collection: "Customers", name: "Name", email: "Email")
    }

    /// The collection the items live in.
    var collection: String {
        switch self {
        case .kinto: "items"
        case .named(_, let items): items.collection
        }
    }

    /// The whole object for an item (a create or a save).
    func object(_ item: String, counter: Int64, created: Int64) -> [String: JSONValue] {
        switch self {
        case .kinto:
            ["id": .string(item), "counter": .int(counter), "created": .int(created)]
        case .named(let scope, let fields):
            [fields.name: .string("\(scope) \(item)"), fields.email: .string("c\(counter).k\(created)@workload.invalid")]
        }
    }

    /// The local id of an item's live object, nil when it does not exist.
    func localID(of item: String, in items: ObjectCollection) throws -> String? {
        switch self {
        case .kinto:
            return try items.find(item) == nil ? nil : item
        case .named(let scope, let fields):
            return try items.findFirst(where: .equal(fields.name, .string("\(scope) \(item)")))?["id"]?.stringValue
        }
    }

    /// The fields a patch of the counter sends (on a named layout the email, keeping `created`).
    func counterPatch(_ item: String, value: Int64, in items: ObjectCollection) throws -> [String: JSONValue] {
        switch self {
        case .kinto:
            return ["counter": .int(value)]
        case .named(_, let fields):
            guard let id = try localID(of: item, in: items), let email = try items.find(id)?[fields.email]?.stringValue,
                  let created = email.split(separator: "@")[0].split(separator: ".k").last.flatMap({ Int64($0) })
            else { fail("no live object for \(item)") }
            return [fields.email: .string("c\(value).k\(created)@workload.invalid")]
        }
    }
}
