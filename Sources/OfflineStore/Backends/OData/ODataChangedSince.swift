/// An entity set's changed-since property (``ODataEntitySetSettings/changedSince``) checked
/// against `$metadata`, and the `$filter` terms of an incremental pull by it (pure).
///
/// An incremental pull asks `P ge <cursor − margin>` ordered by `P` then the key, and pages
/// itself by `(P, Key)`: `(P gt v) or (P eq v and Key gt k)` after the last entity read, so
/// that an entity written between two pages (its new `P` is later than any read) is read on
/// a later page rather than skipped, as a row-offset `$skiptoken` could.
struct ODataChangedSince: Sendable, Equatable {
    /// The kinds of property a pull can be ordered and bounded by.
    enum Kind: Sendable, Equatable {
        /// `Edm.DateTimeOffset`: the margin is subtracted from the cursor.
        case dateTimeOffset
        /// `Edm.Int16`, `Edm.Int32`, `Edm.Int64` (a version counter): the pull starts at the cursor.
        case integer
        /// `Edm.String` (a sortable stamp): the pull starts at the cursor.
        case string
    }

    /// The property, e.g. `ModifiedAt`.
    let property: String
    /// Its declared type, e.g. `Edm.DateTimeOffset`.
    let type: String
    /// How its values are compared and bounded.
    let kind: Kind
    /// How far before the cursor a pull by a `dateTimeOffset` property starts.
    let margin: Duration
    /// Every how many refreshes one is a full pull (``ODataSweepSchedule``).
    let sweepEvery: Int

    /// The types a changed-since property may have.
    static let types: [String: Kind] = ["Edm.DateTimeOffset": .dateTimeOffset, "Edm.Int16": .integer,
                                        "Edm.Int32": .integer, "Edm.Int64": .integer, "Edm.String": .string]

    /// The set's changed-since property, nil when `settings` name none.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` naming the property and the set's
    ///   properties when the set does not declare it, or its type when a pull cannot be ordered by it.
    init?(_ settings: ODataEntitySetSettings?, of set: ODataEntitySet) throws {
        guard let settings, let property = settings.changedSince else { return nil }
        guard let declared = set.property(property) else {
            throw OfflineStoreError(.configuration, "entity set \(set.name): its changed-since property \(property) is not "
                + "declared in $metadata (its properties: \(set.properties.map(\.name).joined(separator: ", ")))")
        }
        guard let kind = Self.types[declared.type] else {
            throw OfflineStoreError(.configuration, "entity set \(set.name): its changed-since property \(property) is "
                + "\(declared.type); it must be one of \(Self.types.keys.sorted().joined(separator: ", "))")
        }
        self.property = property
        type = declared.type
        self.kind = kind
        margin = settings.changedSinceMargin
        sweepEvery = settings.sweepEvery
    }

    /// The property's value in an entity's properties, nil when it is missing, null or not of its kind.
    func value(in properties: [String: JSONValue]) -> JSONValue? {
        guard let value = properties[property], literal(value) != nil else { return nil }
        if kind == .dateTimeOffset, ODataDateTimeOffset(value.stringValue ?? "") == nil { return nil }
        return value
    }

    /// Whether `value` is later than `other` (instants for a `dateTimeOffset`, numbers, text).
    func isLater(_ value: JSONValue, than other: JSONValue) -> Bool {
        switch (kind, value, other) {
        case (.dateTimeOffset, .string(let a), .string(let b)):
            guard let a = ODataDateTimeOffset(a), let b = ODataDateTimeOffset(b) else { return false }
            return a > b
        case (.integer, .int(let a), .int(let b)): return a > b
        case (.string, .string(let a), .string(let b)): return a > b
        default: return false
        }
    }

    /// The later of two values (the first when neither is).
    func latest(_ value: JSONValue?, _ other: JSONValue?) -> JSONValue? {
        guard let value else { return other }
        guard let other else { return value }
        return isLater(other, than: value) ? other : value
    }

    /// `P ge <value − margin>`: the first request of an incremental pull; nil when `value`
    /// is not a value of the property (a cursor that no longer parses).
    func since(_ value: JSONValue) -> String? {
        guard let bound = lowerBound(value) else { return nil }
        return "\(property) ge \(bound)"
    }

    /// The literal an incremental pull starts at: the cursor less the margin for a
    /// `dateTimeOffset` (as UTC), the cursor itself otherwise.
    func lowerBound(_ value: JSONValue) -> String? {
        guard kind == .dateTimeOffset else { return literal(value) }
        guard let text = value.stringValue, let instant = ODataDateTimeOffset(text) else { return nil }
        return instant.moved(back: margin).literal
    }

    /// `(P gt v) or (P eq v and Key gt k)`: the entities after the one at `value` with the key
    /// literal `key`, in the order `P`, key.
    func after(_ value: JSONValue, keyProperty: String, key: String) -> String? {
        guard let literal = literal(value) else { return nil }
        return "(\(property) gt \(literal)) or (\(property) eq \(literal) and \(keyProperty) gt \(key))"
    }

    /// `$orderby` of an incremental pull.
    func orderBy(keyProperty: String) -> String { "\(property),\(keyProperty)" }

    /// A value as a literal of the property, as the service wrote it; nil for a value not of its kind.
    func literal(_ value: JSONValue) -> String? {
        switch (kind, value) {
        case (.dateTimeOffset, .string(let text)):
            return ODataDateTimeOffset(text) == nil ? nil : ODataFilter.literal(value, type: type)
        case (.integer, .int), (.string, .string):
            return ODataFilter.literal(value, type: type)
        default:
            return nil
        }
    }
}
