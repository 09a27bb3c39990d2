/// A declarative ``ModelMigration`` as the store keeps it with the collection's definition,
/// so that every process that opens the store (the `offline-store` tool included) brings
/// older records to the current shape, not only the one that registered the steps.
///
/// Only ``ModelMigration/renameField(_:to:in:)``, ``ModelMigration/addField(_:default:in:)``
/// and ``ModelMigration/removeField(_:in:)`` can be kept: a ``ModelMigration/transform(in:_:)``
/// is code, so a chain holding one is not kept at all (a part of a chain would bring records
/// to a shape no release wrote).
package struct StoredMigration: Codable, Sendable, Hashable {
    /// The version the step leads to.
    var version: Int
    /// A renamed field's old name, with ``to``.
    var rename: String?
    /// A renamed field's new name.
    var to: String?
    /// An added field's name, with ``value``.
    var add: String?
    /// An added field's default.
    var value: JSONValue?
    /// A removed field's name.
    var remove: String?

    /// The kept form of `migration`, or nil for a transform.
    init?(_ migration: ModelMigration) {
        version = migration.version
        switch migration.step {
        case .rename(let old, let new): (rename, to) = (old, new)
        case .add(let field, let value): (add, self.value) = (field, value)
        case .remove(let field): remove = field
        case .transform: return nil
        }
    }

    /// The kept form of every step of `migrations`; nil when there are none, or when one is a
    /// transform.
    package static func chain(_ migrations: [ModelMigration]) -> [StoredMigration]? {
        let kept = migrations.compactMap(StoredMigration.init)
        return kept.isEmpty || kept.count != migrations.count ? nil : kept
    }

    /// The step again; nil for a kept form that names no step (a definition written by hand).
    package var migration: ModelMigration? {
        if let rename, let to { return .renameField(rename, to: to, in: version) }
        if let add, let value { return .addField(add, default: value, in: version) }
        if let remove { return .removeField(remove, in: version) }
        return nil
    }
}
