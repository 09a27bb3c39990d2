/// The reads, observations and deletions that take a `Bool` key path alone as their
/// condition: `where: \.pinned` means "the property is true" (``ModelPredicate/init(_:)``).
extension ModelCollection {
    /// The models whose boolean property is true (`findAll(where: \.pinned)`).
    ///
    /// - Throws: as ``findAll(where:orderBy:limit:offset:)-(ModelPredicate<M>?,_,_,_)``.
    public func findAll(where keyPath: KeyPath<M, Bool>, orderBy: [ModelSort<M>] = [],
                        limit: Int? = nil, offset: Int = 0) throws -> ModelReadResult<M> {
        try findAll(where: ModelPredicate(keyPath), orderBy: orderBy, limit: limit, offset: offset)
    }

    /// The first model, in the given order, whose boolean property is true.
    ///
    /// - Throws: as ``findAll(where:orderBy:limit:offset:)-(ModelPredicate<M>?,_,_,_)``.
    public func findFirst(where keyPath: KeyPath<M, Bool>, orderBy: [ModelSort<M>] = []) throws -> M? {
        try findFirst(where: ModelPredicate(keyPath), orderBy: orderBy)
    }

    /// How many models have the boolean property true (counted as `count(where:)` counts: the models `findAll` returns).
    ///
    /// - Throws: as ``findAll(where:orderBy:limit:offset:)-(ModelPredicate<M>?,_,_,_)``.
    public func count(where keyPath: KeyPath<M, Bool>) throws -> Int {
        try count(where: ModelPredicate(keyPath))
    }

    /// The models whose boolean property is true, as they change (see ``ModelObservation``).
    public func observeAll(where keyPath: KeyPath<M, Bool>, orderBy: [ModelSort<M>] = [],
                           limit: Int? = nil, offset: Int = 0) -> ModelObservation<M> {
        observeAll(where: ModelPredicate(keyPath), orderBy: orderBy, limit: limit, offset: offset)
    }

    /// Deletes every object whose boolean property is true, in one transaction; returns how many.
    ///
    /// - Throws: as `deleteAll(where:policy:)` with a predicate.
    @discardableResult
    public func deleteAll(where keyPath: KeyPath<M, Bool>, policy: UpdatePolicy? = nil) async throws -> Int {
        try await deleteAll(where: ModelPredicate(keyPath), policy: policy)
    }
}

extension ModelQuery {
    /// A query of the models whose boolean property is true (`ModelQuery(where: \.pinned)`).
    public init(where keyPath: KeyPath<M, Bool>, orderBy: [ModelSort<M>] = [], limit: Int? = nil, offset: Int = 0) {
        self.init(where: ModelPredicate(keyPath), orderBy: orderBy, limit: limit, offset: offset)
    }
}
