import Foundation

/// One answer of a collection read or of a delta: its entries in order, and the links that
/// continue it (OData JSON Format 4.0 and 4.01, minimal metadata).
///
/// ``read(_:)`` is a pure function from the body's bytes to a page or an ``OfflineStoreError``
/// `badResponse` naming what is wrong; it parses the body with the store's JSON parser, as
/// the REST readers do. Control information is read in its 4.0 spelling (`@odata.nextLink`)
/// and its 4.01 one (`@nextLink`). A removed entity is read in both shapes: 4.01's
/// `{"@removed":{"reason":…},"@id":…}` (or its key properties instead of `@id`) and 4.0's
/// `{"@odata.context":"…/$deletedEntity","id":…,"reason":…}`. Added and deleted links of a
/// 4.0 delta (`$link`, `$deletedLink`) are counted and skipped.
struct ODataPage: Sendable, Equatable {
    /// An entity as the page lists it.
    struct Entity: Sendable, Equatable {
        /// Its properties, without control information or annotations (no member whose
        /// name holds `@` or starts with `#`).
        var properties: [String: JSONValue]
        /// `@odata.etag`, as written.
        var etag: String?
        /// `@odata.id`, when the page names it (deltas do).
        var id: String?
    }

    /// An entity a delta lists as removed.
    struct Removal: Sendable, Equatable {
        /// Its entity id (`@id`, or `id` in the 4.0 shape), when given.
        var id: String?
        /// The key properties it was named by instead (4.01), without annotations.
        var keyProperties: [String: JSONValue]
        /// `deleted` or `changed` (no longer in the set's scope), when given.
        var reason: String?
    }

    /// One entry of `value`.
    enum Entry: Sendable, Equatable {
        case entity(Entity)
        case removed(Removal)
    }

    /// The entries, in the order of the answer.
    var entries: [Entry]
    /// `@odata.nextLink`: the next page of this read.
    var nextLink: String?
    /// `@odata.deltaLink`: where the changes after this read are asked for.
    var deltaLink: String?
    /// `@odata.count`, when asked for with `$count=true`.
    var count: Int64?
    /// How many added or deleted links (4.0 `$link`/`$deletedLink` entries) were skipped.
    var skippedLinks = 0

    /// The entities, in order.
    var entities: [Entity] {
        entries.compactMap { if case .entity(let entity) = $0 { entity } else { nil } }
    }

    /// The removals, in order.
    var removals: [Removal] {
        entries.compactMap { if case .removed(let removal) = $0 { removal } else { nil } }
    }

    /// Reads a collection or delta answer.
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` naming what is not a page.
    static func read(_ body: some ContiguousBytes) throws -> ODataPage {
        let json: JSONValue
        do { json = try JSONValue(parsing: body) } catch {
            throw OfflineStoreError(.badResponse, "the page is not JSON: \(error)")
        }
        guard let members = json.objectValue else {
            throw OfflineStoreError(.badResponse, "the page is \(json.typeName), not an object with a \"value\" array")
        }
        guard let values = members["value"]?.arrayValue else {
            throw OfflineStoreError(.badResponse, "the page has no \"value\" array (its members: "
                + "\(members.keys.sorted().joined(separator: ", ")))")
        }
        var page = ODataPage(entries: [])
        page.nextLink = try link(members, "nextLink")
        page.deltaLink = try link(members, "deltaLink")
        if let count = control(members, "count") {
            guard let number = count.intValue, number >= 0 else {
                throw OfflineStoreError(.badResponse, "the page's @odata.count is \(count), not a count")
            }
            page.count = number
        }
        page.entries.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            guard let entry = value.objectValue else {
                throw OfflineStoreError(.badResponse, "entry \(index) of \"value\" is \(value.typeName), not an object")
            }
            switch try kind(of: entry, at: index) {
            case .link: page.skippedLinks += 1
            case .removed(let removal): page.entries.append(.removed(removal))
            case .entity:
                page.entries.append(.entity(Entity(properties: properties(entry),
                                                   etag: try string(entry, "etag", at: index),
                                                   id: try string(entry, "id", at: index))))
            }
        }
        return page
    }

    // MARK: - Entries

    private enum Kind { case entity, removed(Removal), link }

    private static func kind(of entry: [String: JSONValue], at index: Int) throws -> Kind {
        if let removed = entry["@removed"] ?? entry["@odata.removed"] {
            guard removed.objectValue != nil else {
                throw OfflineStoreError(.badResponse, "entry \(index)'s @removed is \(removed.typeName), not an object")
            }
            let removal = Removal(id: try string(entry, "id", at: index), keyProperties: properties(entry),
                                  reason: removed["reason"]?.stringValue)
            guard removal.id != nil || !removal.keyProperties.isEmpty else {
                throw OfflineStoreError(.badResponse, "entry \(index) is removed but names neither @id nor a key")
            }
            return .removed(removal)
        }
        let context = try string(entry, "context", at: index) ?? ""
        if context.hasSuffix("/$deletedEntity") {
            guard let id = entry["id"]?.stringValue else {
                throw OfflineStoreError(.badResponse, "entry \(index) is a deleted entity without a string \"id\"")
            }
            return .removed(Removal(id: id, keyProperties: [:], reason: entry["reason"]?.stringValue))
        }
        if context.hasSuffix("/$link") || context.hasSuffix("/$deletedLink") { return .link }
        return .entity
    }

    /// The members that are data: no control information (`@…`), no annotation of a
    /// property (`Name@…`), no advertised operation (`#…`).
    static func properties(_ entry: [String: JSONValue]) -> [String: JSONValue] {
        // Bytes, not `key.contains("@")`: with Foundation imported that bridges the name to an
        // NSString for a non-literal search, for every member of every entity of a page. Unlike
        // that search, an "@" or a leading "#" followed by a combining mark counts too: neither
        // can be part of an OData property name.
        entry.filter { key, _ in !key.utf8.contains(UInt8(ascii: "@")) && key.utf8.first != UInt8(ascii: "#") }
    }

    // MARK: - Control information

    /// `@odata.<name>` (4.0, and 4.01's long form) or `@<name>` (4.01's short form).
    private static func control(_ members: [String: JSONValue], _ name: String) -> JSONValue? {
        members["@odata." + name] ?? members["@" + name]
    }

    private static func string(_ members: [String: JSONValue], _ name: String, at index: Int) throws -> String? {
        guard let value = control(members, name) else { return nil }
        guard let text = value.stringValue else {
            throw OfflineStoreError(.badResponse, "entry \(index)'s @odata.\(name) is \(value.typeName), not a string")
        }
        return text
    }

    private static func link(_ members: [String: JSONValue], _ name: String) throws -> String? {
        guard let value = control(members, name), !value.isNull else { return nil }
        guard let text = value.stringValue, !text.isEmpty else {
            throw OfflineStoreError(.badResponse, "the page's @odata.\(name) is \(value), not a URL")
        }
        return text
    }
}
