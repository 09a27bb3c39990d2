/// An ordering of typed query results by a stored property.
///
/// ```swift
/// let byDue = try todos.findAll(orderBy: [.ascending(\.due), .descending(\.title)])
/// ```
public struct ModelSort<M: SyncModel>: Sendable {
    /// The sort key on the stored field name, or why the property cannot be sorted on.
    let key: Result<SortKey, OfflineStoreError>

    /// Orders by a property, smaller values first.
    public static func ascending<V: ModelQueryValue>(_ keyPath: KeyPath<M, V>) -> ModelSort {
        ModelSort(key: Result { SortKey(try ModelFields.name(of: keyPath)) }.mapError(ModelPredicate<M>.storeError))
    }

    /// Orders by a property, larger values first.
    public static func descending<V: ModelQueryValue>(_ keyPath: KeyPath<M, V>) -> ModelSort {
        ModelSort(key: Result { SortKey(try ModelFields.name(of: keyPath), ascending: false) }.mapError(ModelPredicate<M>.storeError))
    }
}
