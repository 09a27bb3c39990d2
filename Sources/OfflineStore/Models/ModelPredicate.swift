/// A condition on a model's stored properties, written with key paths.
///
/// A misspelled property or a value of the wrong type does not compile. The predicate
/// becomes a ``Condition`` on the stored field names and runs in SQLite, like the JSON
/// API's queries (a declared, indexed field uses its index).
///
/// ```swift
/// let open = try todos.findAll(where: \.done == false && \.due < deadline)
/// let milk = try todos.findAll(where: .contains(\.title, "milk") || \.due == nil)
/// ```
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

    /// The string property contains the text (case-sensitive).
    public static func contains(_ keyPath: KeyPath<M, String>, _ text: String) -> ModelPredicate {
        ModelPredicate(Result { .contains(try ModelFields.name(of: keyPath), text) }.mapError(storeError))
    }

    /// The optional string property contains the text (case-sensitive); nil never matches.
    public static func contains(_ keyPath: KeyPath<M, String?>, _ text: String) -> ModelPredicate {
        ModelPredicate(Result { .contains(try ModelFields.name(of: keyPath), text) }.mapError(storeError))
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
