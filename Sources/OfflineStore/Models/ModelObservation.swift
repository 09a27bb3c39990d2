
/// The models of a typed query as they change: an `AsyncSequence` of `[M]`.
///
/// It yields the current models first, then the models again after every committed
/// write that changed the query's result: local edits, refreshes, conflict settlements.
/// Objects that do not decode as `M` are left out (``LiveQuery`` and
/// ``ModelCollection/findAll(where:orderBy:limit:offset:)-(ModelPredicate<M>?,_,_,_)`` report them). It ends when the
/// store is closed; the database observation stops when the consumer stops iterating
/// (leaves the loop, or its task is cancelled).
///
/// ```swift
/// for try await open in todos.observeAll(where: \.done == false) {
///     print(open.map(\.title))
/// }
/// ```
public struct ModelObservation<M: SyncModel>: AsyncSequence, Sendable {
    /// The models in the query's order.
    public typealias Element = [M]

    let collection: ModelCollection<M>
    let values: Result<StoreObservation<[JSONValue]>, OfflineStoreError>

    /// Creates the iterator, which starts the database observation.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(collection: collection, values: values.map { $0.makeAsyncIterator() })
    }

    /// Iterates the models of the query; releasing it stops the database observation.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let collection: ModelCollection<M>
        var values: Result<StoreObservation<[JSONValue]>.AsyncIterator, OfflineStoreError>

        /// The models after the next change, or nil when the observation ended (the store closed).
        ///
        /// - Throws: ``OfflineStoreError`` for a query that cannot run, or a storage error.
        public mutating func next() async throws -> [M]? {
            var iterator = try values.get()
            defer { values = .success(iterator) }
            guard let json = try await iterator.next() else { return nil }
            return collection.decodeAll(json).models
        }
    }
}

extension ModelCollection {
    /// The models matching the predicate, as they change (see ``ModelObservation``).
    public func observeAll(where predicate: ModelPredicate<M>? = nil, orderBy: [ModelSort<M>] = [],
                           limit: Int? = nil, offset: Int = 0) -> ModelObservation<M> {
        observeAll(ModelQuery(where: predicate, orderBy: orderBy, limit: limit, offset: offset))
    }

    /// The models a query matches, as they change (see ``ModelObservation``).
    public func observeAll(_ query: ModelQuery<M>) -> ModelObservation<M> {
        let json = self.json
        let values = Result {
            let (condition, sort) = try query.compiled()
            return json.observeAll(where: condition, orderBy: sort, limit: query.limit, offset: query.offset)
        }.mapError(ModelPredicate<M>.storeError)
        return ModelObservation(collection: self, values: values)
    }

    /// The stored objects (with their sync state) a query matches, as they change.
    func observeObjects(_ query: ModelQuery<M>) -> StoreObservation<[StoredObject]> {
        let json = self.json
        let select = Result {
            let (condition, sort) = try query.compiled()
            return try json.selectQuery(where: condition, state: nil, orderBy: sort, limit: query.limit, offset: query.offset)
        }
        return store.local.observe { db in try select.get().rows(db).map(\.publicObject) }
    }
}
