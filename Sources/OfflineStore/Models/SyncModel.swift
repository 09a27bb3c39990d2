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

    /// Stored properties whose coding key differs from the property's name, by key path.
    ///
    /// Needed only for a custom `CodingKeys` that renames a property, so that queries on
    /// that key path use the stored name:
    ///
    /// ```swift
    /// static let renamedFields: [PartialKeyPath<Todo>: String] = [\.dueDate: CodingKeys.dueDate.stringValue]
    /// ```
    static var renamedFields: [PartialKeyPath<Self>: String] { get }
}

extension SyncModel {
    /// ISO 8601 with fractional seconds, in UTC.
    public static var dateEncoding: ModelDateEncoding { .iso8601 }

    /// No renamed property: every coding key is its property's name.
    public static var renamedFields: [PartialKeyPath<Self>: String] { [:] }

    /// The type's encoding options (its ``dateEncoding``), as its collection uses them.
    public static var coding: ModelCoding { ModelCoding(dateEncoding: dateEncoding) }
}
