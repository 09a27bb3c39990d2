#if canImport(Observation)
import Observation

/// The current models of a typed query and their sync status, kept up to date for a UI.
///
/// An `@Observable` object: SwiftUI views (and `withObservationTracking`) that read
/// ``models`` or ``statuses`` update after every local edit, flush, refresh or conflict
/// settlement that changes them. A thin adapter over the store's database observation,
/// which runs until ``stop()``, until the store is closed, or until the object is released
/// (``isObserving`` says whether it runs).
///
/// ```swift
/// @MainActor struct TodoList: View {
///     @State var open = LiveQuery(store.collection(Todo.self), ModelQuery(where: \.done == false))
///     var body: some View {
///         List(open.models) { todo in
///             Label(todo.title, systemImage: open.status(of: todo) == .pending ? "icloud.and.arrow.up" : "checkmark.icloud")
///         }
///     }
/// }
/// ```
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class LiveQuery<M: SyncModel> {
    /// The models matching the query, in its order (objects that do not decode are in ``undecodable``).
    public private(set) var models: [M] = []
    /// The sync status of every matching object, by id.
    public private(set) var statuses: [String: ModelSyncStatus] = [:]
    /// The matching objects that do not decode as `M`.
    public private(set) var undecodable: [UndecodableRecord] = []
    /// Whether the first result has arrived.
    public private(set) var isLoaded = false
    /// Whether the observation runs: false once ``stop()`` was called, the store was
    /// closed, or the observation failed (``error``). The current values stay.
    public private(set) var isObserving = true
    /// Why the observation stopped, if it failed (a query on a key path that is not a
    /// stored property, a closed store).
    public private(set) var error: (any Error)?

    /// The collection observed.
    @ObservationIgnored public let collection: ModelCollection<M>
    /// The query observed.
    @ObservationIgnored public let query: ModelQuery<M>

    // Written only on the main actor (in init and stop()); read in deinit, when nothing
    // else can reach the object any more. So no two accesses can race.
    @ObservationIgnored nonisolated(unsafe) private var task: Task<Void, Never>?

    /// Starts observing a query of a collection.
    public init(_ collection: ModelCollection<M>, _ query: ModelQuery<M> = .all) {
        self.collection = collection
        self.query = query
        let objects = collection.observeObjects(query)
        task = Task { [weak self] in
            do {
                for try await snapshot in objects {
                    guard let self else { return }
                    self.publish(snapshot)
                }
            } catch is CancellationError {
            } catch {
                self?.error = error
            }
            self?.isObserving = false
        }
    }

    /// Starts observing the models matching a predicate (every model when it is nil), in order.
    ///
    /// ```swift
    /// let byTitle = LiveQuery(todos, orderBy: [.ascending(\.title)])
    /// ```
    public convenience init(_ collection: ModelCollection<M>, where predicate: ModelPredicate<M>? = nil,
                            orderBy: [ModelSort<M>] = [], limit: Int? = nil) {
        self.init(collection, ModelQuery(where: predicate, orderBy: orderBy, limit: limit))
    }

    /// Starts observing the models whose boolean property is true (`LiveQuery(notes, where: \.pinned)`).
    public convenience init(_ collection: ModelCollection<M>, where keyPath: KeyPath<M, Bool>,
                            orderBy: [ModelSort<M>] = [], limit: Int? = nil) {
        self.init(collection, ModelQuery(where: ModelPredicate(keyPath), orderBy: orderBy, limit: limit))
    }

    deinit { task?.cancel() }

    /// The sync status of a model of ``models``; not optional, because every object in the
    /// result exists and has one (``ModelCollection/status(of:)``, which takes any id, is nil
    /// for an id the store does not hold). A model that is not in the result answers
    /// ``ModelSyncStatus/synced``; look it up with ``ModelCollection/status(of:)`` instead.
    public func status(of model: M) -> ModelSyncStatus { statuses[model.id] ?? .synced }

    /// Stops observing; the current values stay.
    public func stop() {
        task?.cancel()
        task = nil
        isObserving = false
    }

    /// Returns once the observation ended (at once after ``stop()``); for tests.
    func untilStopped() async {
        await task?.value
    }

    private func publish(_ snapshot: [StoredObject]) {
        var values: [JSONValue] = []
        var statuses: [String: ModelSyncStatus] = [:]
        values.reserveCapacity(snapshot.count)
        for object in snapshot {
            guard let value = object.value else { continue }
            values.append(value)
            statuses[object.id] = ModelSyncStatus(object.state)
        }
        let result = collection.decodeAll(values)
        models = result.models
        undecodable = result.undecodable
        self.statuses = statuses
        isLoaded = true
    }
}
#endif
