/// A condition on a model's stored properties, written with key paths.
///
/// A misspelled property or a value of the wrong type does not compile. The predicate
/// becomes a ``Condition`` on the stored field names and runs in SQLite, like the JSON
/// API's queries (a declared, indexed field uses its index).
///
/// ```swift
/// let open = try todos.findAll(where: \.done == false && \.due < deadline)
/// let milk = try todos.findAll(where: .containsIgnoringCase(\.title, "milk") || \.due == nil)
/// let home = try notes.findAll(where: .contains(\.tags, "home") && !\.archived)
/// let pinned = try notes.findAll(where: \.pinned)
/// ```
///
/// A `Bool` key path alone (`where: \.pinned`) means the property is true, and `!\.pinned`
/// that it is not (false or missing).
public struct ModelPredicate<M: SyncModel>: Sendable {
    /// The condition on stored field names, or why the predicate cannot run.
    let condition: Result<Condition, OfflineStoreError>

    init(_ condition: Result<Condition, OfflineStoreError>) { self.condition = condition }

    /// A comparison of one property with one value.
    static func compare<V: ModelQueryValue>(_ keyPath: KeyPath<M, V>, _ value: V,
                                            _ make: (String, JSONValue) -> Condition) -> ModelPredicate {
        ModelPredicate(Result {
            try make(ModelFields.name(of: keyPath), ModelPredicate.json(value))
        }.mapError(ModelPredicate.storeError))
    }

    static func json<V: ModelQueryValue>(_ value: V) throws -> JSONValue {
        try ModelEncoder(coding: M.coding).encodeForStore(value, "a query value")
    }

    static func storeError(_ error: any Error) -> OfflineStoreError {
        error as? OfflineStoreError ?? OfflineStoreError(.invalidJSON, "a query value cannot be encoded: \(error)")
    }

    /// The property equals one of the values.
    public static func oneOf<V: ModelQueryValue>(_ keyPath: KeyPath<M, V>, _ values: [V]) -> ModelPredicate {
        ModelPredicate(Result {
            .oneOf(try ModelFields.name(of: keyPath), try values.map(json))
        }.mapError(storeError))
    }

    /// The string property contains the text, compared exactly: case-sensitive ("Buy Milk"
    /// does not contain "milk"); `containsIgnoringCase` ignores case.
    public static func contains(_ keyPath: KeyPath<M, String>, _ text: String) -> ModelPredicate {
        ModelPredicate(Result { .contains(try ModelFields.name(of: keyPath), text) }.mapError(storeError))
    }

    /// The optional string property contains the text (case-sensitive); nil never matches.
    public static func contains(_ keyPath: KeyPath<M, String?>, _ text: String) -> ModelPredicate {
        ModelPredicate(Result { .contains(try ModelFields.name(of: keyPath), text) }.mapError(storeError))
    }

    /// The string property contains the text, ignoring case in every script ("CRÈME brûlée"
    /// contains "crème"): both sides are lower-cased as Swift's `lowercased()` does. Accents
    /// still count ("crème" does not contain "creme"); no wildcards.
    public static func containsIgnoringCase(_ keyPath: KeyPath<M, String>, _ text: String) -> ModelPredicate {
        ModelPredicate(Result { .containsIgnoringCase(try ModelFields.name(of: keyPath), text) }.mapError(storeError))
    }

    /// The optional string property contains the text, ignoring case; nil never matches.
    public static func containsIgnoringCase(_ keyPath: KeyPath<M, String?>, _ text: String) -> ModelPredicate {
        ModelPredicate(Result { .containsIgnoringCase(try ModelFields.name(of: keyPath), text) }.mapError(storeError))
    }

    /// The array property has an element equal to the value (`.contains(\.tags, "home")`):
    /// whole elements, compared exactly, as `==` compares.
    public static func contains<V: ModelQueryValue>(_ keyPath: KeyPath<M, [V]>, _ element: V) -> ModelPredicate {
        ModelPredicate(Result { .arrayContains(try ModelFields.name(of: keyPath), try json(element)) }.mapError(storeError))
    }

    /// The optional array property has an element equal to the value; nil never matches.
    public static func contains<V: ModelQueryValue>(_ keyPath: KeyPath<M, [V]?>, _ element: V) -> ModelPredicate {
        ModelPredicate(Result { .arrayContains(try ModelFields.name(of: keyPath), try json(element)) }.mapError(storeError))
    }

    /// The boolean property is true (what `where: \.pinned` means).
    public init(_ keyPath: KeyPath<M, Bool>) {
        self = .compare(keyPath, true) { .equal($0, $1) }
    }

    /// Both predicates hold.
    public static func && (lhs: ModelPredicate, rhs: ModelPredicate) -> ModelPredicate {
        ModelPredicate(Result { .and([try lhs.condition.get(), try rhs.condition.get()]) }.mapError(storeError))
    }

    /// At least one predicate holds.
    public static func || (lhs: ModelPredicate, rhs: ModelPredicate) -> ModelPredicate {
        ModelPredicate(Result { .or([try lhs.condition.get(), try rhs.condition.get()]) }.mapError(storeError))
    }

    /// The predicate does not hold.
    public static prefix func ! (predicate: ModelPredicate) -> ModelPredicate {
        ModelPredicate(predicate.condition.map { .not($0) })
    }
}

/// The boolean property is not true: false, or missing from the stored object.
///
/// ```swift
/// let unpinned = try notes.findAll(where: !\.pinned)
/// ```
public prefix func ! <M: SyncModel>(keyPath: KeyPath<M, Bool>) -> ModelPredicate<M> {
    !ModelPredicate(keyPath)
}

/// Both hold: the predicate, and the boolean property is true (`.contains(\.tags, "home") && \.pinned`).
public func && <M: SyncModel>(lhs: ModelPredicate<M>, rhs: KeyPath<M, Bool>) -> ModelPredicate<M> {
    lhs && ModelPredicate(rhs)
}

/// Both hold: the boolean property is true, and the predicate (`\.pinned && \.title == "A"`).
public func && <M: SyncModel>(lhs: KeyPath<M, Bool>, rhs: ModelPredicate<M>) -> ModelPredicate<M> {
    ModelPredicate(lhs) && rhs
}

/// At least one holds: the predicate, or the boolean property is true.
public func || <M: SyncModel>(lhs: ModelPredicate<M>, rhs: KeyPath<M, Bool>) -> ModelPredicate<M> {
    lhs || ModelPredicate(rhs)
}

/// At least one holds: the boolean property is true, or the predicate.
public func || <M: SyncModel>(lhs: KeyPath<M, Bool>, rhs: ModelPredicate<M>) -> ModelPredicate<M> {
    ModelPredicate(lhs) || rhs
}

/// The property equals the value (`nil` matches a missing field too).
public func == <M: SyncModel, V: ModelQueryValue>(lhs: KeyPath<M, V>, rhs: V) -> ModelPredicate<M> {
    .compare(lhs, rhs) { .equal($0, $1) }
}

/// The property differs from the value.
public func != <M: SyncModel, V: ModelQueryValue>(lhs: KeyPath<M, V>, rhs: V) -> ModelPredicate<M> {
    .compare(lhs, rhs) { .notEqual($0, $1) }
}

/// The property is less than the value (dates in ISO 8601 compare in time order).
public func < <M: SyncModel, V: ModelQueryValue>(lhs: KeyPath<M, V>, rhs: V) -> ModelPredicate<M> {
    .compare(lhs, rhs) { .less($0, $1) }
}

/// The property is less than or equal to the value.
public func <= <M: SyncModel, V: ModelQueryValue>(lhs: KeyPath<M, V>, rhs: V) -> ModelPredicate<M> {
    .compare(lhs, rhs) { .lessOrEqual($0, $1) }
}

/// The property is greater than the value.
public func > <M: SyncModel, V: ModelQueryValue>(lhs: KeyPath<M, V>, rhs: V) -> ModelPredicate<M> {
    .compare(lhs, rhs) { .greater($0, $1) }
}

/// The property is greater than or equal to the value.
public func >= <M: SyncModel, V: ModelQueryValue>(lhs: KeyPath<M, V>, rhs: V) -> ModelPredicate<M> {
    .compare(lhs, rhs) { .greaterOrEqual($0, $1) }
}
