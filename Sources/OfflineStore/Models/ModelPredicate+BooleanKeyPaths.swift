// A boolean key path alone in a predicate: `\.pinned` means the property is true and
// `!\.pinned` that it is not (false or missing), combined with `&&` and `||` with a
// predicate or with another boolean key path:
//
//     let urgent = try tasks.findAll(where: \.flagged && !\.done)
//     let either = try tasks.findAll(where: \.flagged || \.starred)

/// The boolean property is not true: false, or missing from the stored object.
///
/// ```swift
/// let unpinned = try notes.findAll(where: !\.pinned)
/// ```
public prefix func ! <M: SyncModel>(keyPath: KeyPath<M, Bool>) -> ModelPredicate<M> {
    !ModelPredicate(keyPath)
}

/// The optional boolean property is not true: false, nil, or missing.
public prefix func ! <M: SyncModel>(keyPath: KeyPath<M, Bool?>) -> ModelPredicate<M> {
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

/// Both boolean properties are true (`\.pinned && \.flagged`).
public func && <M: SyncModel>(lhs: KeyPath<M, Bool>, rhs: KeyPath<M, Bool>) -> ModelPredicate<M> {
    ModelPredicate(lhs) && ModelPredicate(rhs)
}

/// At least one holds: the predicate, or the boolean property is true.
public func || <M: SyncModel>(lhs: ModelPredicate<M>, rhs: KeyPath<M, Bool>) -> ModelPredicate<M> {
    lhs || ModelPredicate(rhs)
}

/// At least one holds: the boolean property is true, or the predicate.
public func || <M: SyncModel>(lhs: KeyPath<M, Bool>, rhs: ModelPredicate<M>) -> ModelPredicate<M> {
    ModelPredicate(lhs) || rhs
}

/// At least one boolean property is true (`\.pinned || \.flagged`).
public func || <M: SyncModel>(lhs: KeyPath<M, Bool>, rhs: KeyPath<M, Bool>) -> ModelPredicate<M> {
    ModelPredicate(lhs) || ModelPredicate(rhs)
}
