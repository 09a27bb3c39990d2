/// A typed query: which objects, in which order, how many.
///
/// ```swift
/// let query = ModelQuery<Todo>(where: \.done == false, orderBy: [.ascending(\.title)])
/// let open = LiveQuery(todos, query)
/// ```
public struct ModelQuery<M: SyncModel>: Sendable {
    /// The condition; nil matches every object.
    public var predicate: ModelPredicate<M>?
    /// The order (then by id).
    public var orderBy: [ModelSort<M>]
    /// The maximum number of objects; nil for all.
    public var limit: Int?
    /// How many objects to skip first.
    public var offset: Int

    /// A query; every argument is optional.
    public init(where predicate: ModelPredicate<M>? = nil, orderBy: [ModelSort<M>] = [],
                limit: Int? = nil, offset: Int = 0) {
        self.predicate = predicate
        self.orderBy = orderBy
        self.limit = limit
        self.offset = offset
    }

    /// Every object, ordered by id.
    public static var all: ModelQuery { ModelQuery() }

    /// The query on stored field names that the JSON API runs.
    func compiled() throws -> (condition: Condition?, orderBy: [SortKey]) {
        (try predicate?.condition.get(), try orderBy.map { try $0.key.get() })
    }
}
