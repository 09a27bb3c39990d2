/// A Swift type whose values are the objects of one synced collection.
///
/// Adopt it on a `Codable` struct with a `String` id; the store then reads and edits the
/// collection as values of that type (``ModelCollection``), queries it with key paths
/// (``ModelQuery``), and shows conflicts and rejected edits as the type (``ModelConflict``,
/// ``ModelFailedEntry``).
///
/// ```swift
/// struct Todo: SyncModel {
///     static let collectionName = "todos"
///     var id: String
///     var title: String
///     var done = false
///     var due: Date?
/// }
/// try store.register(Todo.self, conflictPolicy: .merge)
/// let todos = store.collection(Todo.self)
/// ```
///
/// Values are stored as JSON objects through ``ModelEncoder``/``ModelDecoder`` (see
/// ``ModelCoding`` for dates, decimals and numbers). Members of a stored object that the
/// type does not know are kept when the type saves it.
public protocol SyncModel: Codable, Sendable, Identifiable where ID == String {
    /// The collection's name, locally and on the server.
    static var collectionName: String { get }

    /// How the type's dates are written; ``ModelDateEncoding/iso8601`` unless the type says otherwise.
    static var dateEncoding: ModelDateEncoding { get }

    /// Stored names that override the ones the store finds, by key path. Rarely needed.
    ///
    /// The store reads a key path's stored name from the type's own `Codable`
    /// implementation, so `CodingKeys` renames (`case dueDate = "due_date"`) and nested
    /// properties (`\.address.city`) need nothing here. An entry here wins over what the
    /// store finds: for a property whose value the store cannot tell apart from another
    /// field's (see Docs/Models.md, "How key paths find their field").
    ///
    /// ```swift
    /// static let renamedFields: [PartialKeyPath<Todo>: String] = [\.dueDate: "due_date"]
    /// ```
    static var renamedFields: [PartialKeyPath<Self>: String] { get }

    /// The version of the model's stored shape; 1 (the default) until it evolves. Raise it
    /// with each release that changes the shape, and say how in ``migrations``
    /// (Docs/Models.md, "Evolving a model").
    static var schemaVersion: Int { get }

    /// How records of earlier versions become this one; empty by default.
    ///
    /// ```swift
    /// static let schemaVersion = 3
    /// static let migrations: [ModelMigration] = [
    ///     .renameField("name", to: "title", in: 2),
    ///     .addField("priority", default: 0, in: 3),
    /// ]
    /// ```
    static var migrations: [ModelMigration] { get }
}

extension SyncModel {
    /// ISO 8601 with fractional seconds, in UTC.
    public static var dateEncoding: ModelDateEncoding { .iso8601 }

    /// No override: every stored name comes from the type's `Codable` implementation.
    public static var renamedFields: [PartialKeyPath<Self>: String] { [:] }

    /// Version 1: the model has not evolved.
    public static var schemaVersion: Int { 1 }

    /// No migrations.
    public static var migrations: [ModelMigration] { [] }

    /// The type's encoding options (its ``dateEncoding``), as its collection uses them.
    public static var coding: ModelCoding { ModelCoding(dateEncoding: dateEncoding) }
}
