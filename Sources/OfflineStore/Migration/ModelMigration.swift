/// One step of a collection's evolution: what a record of the previous version becomes in
/// version ``version``.
///
/// A model declares its steps once, with its ``SyncModel/schemaVersion``; a JSON collection
/// declares them on its ``CollectionDescriptor`` (``CollectionDescriptor/migrations``):
///
/// ```swift
/// struct Todo: SyncModel {
///     static let collectionName = "todos"
///     static let schemaVersion = 3
///     static let migrations: [ModelMigration] = [
///         .renameField("name", to: "title", in: 2),
///         .addField("priority", default: 0, in: 3),
///         .transform(in: 3) { record in
///             if record["tags"] == nil { record["tags"] = ["imported"] }
///         },
///     ]
///     var id: String
///     var title: String
///     var priority: Int
///     var tags: [String]
/// }
/// ```
///
/// Steps run in the order of their versions (steps of one version in the order declared),
/// on JSON records, not on the model: they run where the model cannot decode yet. They
/// rewrite the stored copies once when a newer version is registered, and every record
/// that arrives from the server later, since the server does not say which release wrote
/// it (Docs/Models.md, "Evolving a model"). So every step must leave a record that is
/// already in its new shape as it is: ``renameField(_:to:in:)``, ``addField(_:default:in:)``
/// and ``removeField(_:in:)`` do; a ``transform(in:_:)`` checks before it changes a field.
public struct ModelMigration: Sendable {
    /// The schema version this step leads to (2 or more: version 1 is the first shape).
    public let version: Int
    let step: Step

    /// What the step does to a record.
    enum Step: Sendable {
        case rename(from: String, to: String)
        case add(field: String, value: JSONValue)
        case remove(field: String)
        case transform(@Sendable (inout JSONValue) throws -> Void)
    }

    /// A field renamed in `version`: a record holding `old` gets its value under `new`, and
    /// `old` is removed. A record that already holds `new` keeps that value (and loses `old`).
    public static func renameField(_ old: String, to new: String, in version: Int) -> ModelMigration {
        ModelMigration(version: version, step: .rename(from: old, to: new))
    }

    /// A field added in `version`: a record without `name` (or with `null` there, as REST
    /// servers send a column nobody set) gets `value`. This is also how a
    /// model says what a field reads as when a record lacks it (records of older releases,
    /// of other clients): the store fills it in before the model decodes, and before
    /// SQLite queries see it.
    public static func addField(_ name: String, default value: JSONValue, in version: Int) -> ModelMigration {
        ModelMigration(version: version, step: .add(field: name, value: value))
    }

    /// A field removed in `version`: its value is dropped from every record, so a save no
    /// longer sends it back to the server.
    public static func removeField(_ name: String, in version: Int) -> ModelMigration {
        ModelMigration(version: version, step: .remove(field: name))
    }

    /// Any other change in `version`: a type change, a split or a merge of fields. The
    /// closure gets the whole record (a JSON object with its `id`) and changes it in place;
    /// it must not change the id, and must leave a record already in the new shape as it
    /// is. An error it throws leaves that record as it was and reports it undecodable with
    /// this error (``UndecodableRecord/error`` wraps it); the other records go on.
    ///
    /// The closure runs inside the store's transaction: keep it a pure function of the record.
    public static func transform(in version: Int, _ body: @escaping @Sendable (inout JSONValue) throws -> Void) -> ModelMigration {
        ModelMigration(version: version, step: .transform(body))
    }

    /// Migrates `record`, a JSON object, by this step.
    func migrate(_ record: inout JSONValue) throws {
        switch step {
        case .rename(let old, let new):
            guard let value = record[old] else { return }
            if record[new] == nil { record[new] = value }
            record[old] = nil
        case .add(let field, let value):
            if record[field] == nil || record[field] == .null { record[field] = value }
        case .remove(let field):
            if record[field] != nil { record[field] = nil }
        case .transform(let body):
            try body(&record)
        }
    }

    /// The fields the step gives a record (a rename's new name, an added field).
    var addedFields: [String] {
        switch step {
        case .rename(_, let new): [new]
        case .add(let field, _): [field]
        case .remove, .transform: []
        }
    }

    /// The fields the step takes from a record (a rename's old name, a removed field).
    var removedFields: [String] {
        switch step {
        case .rename(let old, _): [old]
        case .remove(let field): [field]
        case .add, .transform: []
        }
    }

    /// The fields the step names (none for a transform), to check them once at registration.
    var namedFields: [String] {
        switch step {
        case .rename(let old, let new): [old, new]
        case .add(let field, _), .remove(let field): [field]
        case .transform: []
        }
    }
}

extension ModelMigration: CustomStringConvertible {
    /// The step and its version, e.g. `renameField("name", to: "title", in: 2)`.
    public var description: String {
        switch step {
        case .rename(let old, let new): "renameField(\"\(old)\", to: \"\(new)\", in: \(version))"
        case .add(let field, let value): "addField(\"\(field)\", default: \(value.serialized()), in: \(version))"
        case .remove(let field): "removeField(\"\(field)\", in: \(version))"
        case .transform: "transform(in: \(version))"
        }
    }
}
