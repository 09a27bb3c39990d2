import GRDB

/// Values read from the store as they change: an `AsyncSequence` that yields the current
/// value first, then a new value after every committed write that changed it (equal values
/// are not repeated), over GRDB's `ValueObservation`.
///
/// It ends (the loop leaves normally) when the store is closed; the database observation
/// stops when the consumer stops iterating (leaves the loop, or its task is cancelled).
///
/// ```swift
/// for try await pending in store.observePendingCount() { badge = pending }
/// // after store.close(), the loop has ended
/// ```
public struct StoreObservation<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value

    let values: AsyncValueObservation<Value>
    let local: LocalStore

    /// Creates the iterator, which starts the database observation.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(values: values.makeAsyncIterator(), local: local)
    }

    /// Iterates the values; releasing it stops the database observation.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var values: AsyncValueObservation<Value>.Iterator
        let local: LocalStore

        /// The value after the next change, or nil when the observation ended (the store closed).
        ///
        /// - Throws: ``OfflineStoreError`` for a query that cannot run, or a storage error.
        public mutating func next() async throws -> Value? {
            do {
                return try await values.next()
            } catch where local.isClosed && !(error is CancellationError) {
                return nil   // the store closed: the observation ends, it did not fail
            }
        }
    }
}
