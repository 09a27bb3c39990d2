import Foundation

/// The type of an entity set's single key property, as far as the store can sync it: the
/// store's ids are strings, and these four types map to strings one to one.
enum ODataKeyType: String, Sendable, CaseIterable {
    /// `Edm.Guid`: unquoted in URLs; the store's id is the lower-case 8-4-4-4-12 form.
    case guid = "Edm.Guid"
    /// `Edm.String`: quoted in URLs, a `'` doubled.
    case string = "Edm.String"
    /// `Edm.Int32`: decimal digits, in range.
    case int32 = "Edm.Int32"
    /// `Edm.Int64`: decimal digits, in range.
    case int64 = "Edm.Int64"
}

/// An entity set's key (one property) and the mapping between the store's string ids and
/// what the server reads and writes: key literals in URLs, key values in JSON bodies, and
/// entity ids (`…/Tasks(6c2f…)`) in deltas. Pure; each function either maps or throws an
/// ``OfflineStoreError`` naming the entity set and what is wrong.
struct ODataKey: Sendable, Hashable {
    /// The entity set the key belongs to (named in errors and in paths).
    let entitySet: String
    /// The key property's name, e.g. `ID`.
    let property: String
    /// The key property's type.
    let type: ODataKeyType
    /// The entity set's name as a URL path segment, percent-encoded once rather than for
    /// every request (Foundation's encoding bridges the name to an `NSString` each time).
    let entitySetSegment: String

    init(entitySet: String, property: String, type: ODataKeyType) {
        self.entitySet = entitySet
        self.property = property
        self.type = type
        entitySetSegment = entitySet.addingPercentEncoding(withAllowedCharacters: Self.literalCharacters) ?? entitySet
    }

    /// Checks that a store id can be this key: a lower-case Guid, an integer in range, or
    /// any string. Lower case only, so that the id the server sends back is the same string.
    ///
    /// - Throws: ``OfflineStoreError`` `invalidID` naming the rule.
    func validate(_ id: String) throws {
        switch type {
        case .string: return
        case .guid:
            guard Self.isGuid(id) else {
                throw invalid(id, "is not a Guid in lower case (8-4-4-4-12 hexadecimal digits)")
            }
        case .int32, .int64:
            guard Self.integer(id, type) != nil else {
                throw invalid(id, "is not a decimal \(type == .int32 ? "32" : "64")-bit integer (no '+', no leading zero)")
            }
        }
    }

    /// The key literal of `id` in a URL, percent-encoded: `6c2f…`, `42`, `'O''Neil'`.
    ///
    /// - Throws: ``OfflineStoreError`` `invalidID` for an id this key cannot be.
    func literal(_ id: String) throws -> String {
        try validate(id)
        switch type {
        case .guid, .int32, .int64: return id
        case .string:
            let quoted = "'" + id.replacingOccurrences(of: "'", with: "''") + "'"
            return quoted.addingPercentEncoding(withAllowedCharacters: Self.literalCharacters) ?? quoted
        }
    }

    /// The path of one entity relative to the service root: `Tasks(6c2f…)`.
    ///
    /// - Throws: ``OfflineStoreError`` `invalidID` for an id this key cannot be.
    func path(_ id: String) throws -> String {
        "\(entitySetSegment)(\(try literal(id)))"
    }

    /// The store id of the key value in an entity's JSON (`"6C2F…"`, `42`, `"O'Neil"`).
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` for a value of another type or out of range.
    func id(of value: JSONValue) throws -> String {
        switch (type, value) {
        case (.string, .string(let text)): return text
        case (.guid, .string(let text)) where Self.isGuid(text.lowercased()): return text.lowercased()
        case (.int32, .int(let number)) where Int32(exactly: number) != nil: return String(number)
        case (.int64, .int(let number)): return String(number)
        default:
            throw OfflineStoreError(.badResponse, "\(entitySet): the key \(property) is \(value.typeName) \(value), "
                + "not an \(type.rawValue) value")
        }
    }

    /// The store id of a key literal as it appears in a URL or entity id (percent-encoded or
    /// not): `'O''Neil'` → `O'Neil`, `ID=42` → `42`.
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` for a literal that is not this key's.
    func id(ofLiteral raw: String) throws -> String {
        var text = raw.removingPercentEncoding ?? raw
        if let equals = text.firstIndex(of: "="), !text.hasPrefix("'") {
            guard text[..<equals] == property else { throw badLiteral(raw) }
            text = String(text[text.index(after: equals)...])
        }
        switch type {
        case .string:
            guard text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") else { throw badLiteral(raw) }
            let inner = text.dropFirst().dropLast()
            var id = "", quote = false
            for character in inner {
                if quote { guard character == "'" else { throw badLiteral(raw) }; quote = false; continue }
                if character == "'" { quote = true }
                id.append(character)
            }
            guard !quote else { throw badLiteral(raw) }
            return id
        case .guid:
            // OData 4.0 wrote `guid'…'`; some servers still quote Guids.
            var guid = Substring(text)
            if guid.hasPrefix("guid'"), guid.hasSuffix("'") { guid = guid.dropFirst(5).dropLast() }
            guard Self.isGuid(guid.lowercased()) else { throw badLiteral(raw) }
            return guid.lowercased()
        case .int32, .int64:
            var number = Substring(text)
            if type == .int64, number.hasSuffix("L") { number = number.dropLast() }
            guard let value = Self.integer(String(number), type) else { throw badLiteral(raw) }
            return String(value)
        }
    }

    /// The store id named by an entity id or URL: `http://host/odata/Tasks(6c2f…)`,
    /// `Tasks(ID=6c2f…)` or `Tasks('a')`; the last path segment must be this entity set's.
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` for an id of another entity set or a
    ///   malformed one.
    func id(ofEntityID entityID: String) throws -> String {
        var path = Substring(entityID)
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<query] }
        let prefix = entitySet + "("
        guard path.hasSuffix(")"), let open = path.range(of: prefix, options: .backwards),
              open.lowerBound == path.startIndex || path[path.index(before: open.lowerBound)] == "/" else {
            throw OfflineStoreError(.badResponse, "\(entitySet): the entity id \(entityID) does not name an entity of \(entitySet)")
        }
        return try id(ofLiteral: String(path[open.upperBound..<path.index(before: path.endIndex)]))
    }

    // MARK: - Rules

    /// What a key literal may hold unencoded in a path segment: unreserved characters and `'`.
    static let literalCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~'")

    /// Whether `text` is a Guid in lower case: 8-4-4-4-12 hexadecimal digits.
    static func isGuid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
        }
        return true
    }

    /// The integer `text` spells in the store's one spelling (no sign but `-`, no leading
    /// zero, no `+`), if it fits `type`.
    static func integer(_ text: String, _ type: ODataKeyType) -> Int64? {
        guard let value = Int64(text), String(value) == text else { return nil }
        if type == .int32, Int32(exactly: value) == nil { return nil }
        return value
    }

    private func invalid(_ id: String, _ rule: String) -> OfflineStoreError {
        OfflineStoreError(.invalidID, "\(entitySet): the id \"\(id)\" \(rule): the key \(property) is \(type.rawValue)")
    }

    private func badLiteral(_ raw: String) -> OfflineStoreError {
        OfflineStoreError(.badResponse, "\(entitySet): \(raw) is not a key literal of \(property) (\(type.rawValue))")
    }
}
