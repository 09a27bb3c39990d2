/// The models a typed read found, in order, plus the objects that did not decode.
///
/// It is a collection of the models, so it reads like an array; the objects the model
/// cannot decode are not dropped silently but listed in ``undecodable``.
///
/// ```swift
/// let result = try todos.findAll(where: \.done == false)
/// for todo in result { print(todo.title) }
/// for bad in result.undecodable { log(bad.id, bad.json, bad.error) }
/// ```
public struct ModelReadResult<M: SyncModel>: RandomAccessCollection, Sendable {
    /// The decoded models, in the query's order.
    public let models: [M]
    /// The matching objects that do not decode as `M`, in the query's order.
    public let undecodable: [UndecodableRecord]

    /// A result of decoded models and undecodable objects.
    public init(models: [M], undecodable: [UndecodableRecord] = []) {
        self.models = models
        self.undecodable = undecodable
    }

    /// The first model's position.
    public var startIndex: Int { models.startIndex }
    /// The position after the last model.
    public var endIndex: Int { models.endIndex }
    /// The model at a position.
    public subscript(position: Int) -> M { models[position] }
}
