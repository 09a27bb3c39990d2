/// A collection's migration steps in the order they run, and how a record goes through them.
///
/// Built from a descriptor's ``CollectionDescriptor/schemaVersion`` and
/// ``CollectionDescriptor/migrations``; a pure value (no SQLite, no I/O).
package struct MigrationChain: Sendable {
    /// The version records reach.
    let version: Int
    /// The steps, sorted by version; steps of one version keep the order they were declared in.
    let steps: [ModelMigration]

    package init(version: Int, migrations: [ModelMigration]) {
        self.version = version
        steps = migrations.enumerated()
            .sorted { ($0.element.version, $0.offset) < ($1.element.version, $1.offset) }
            .map(\.element)
    }

    /// Whether no record ever changes (no steps).
    var isEmpty: Bool { steps.isEmpty }

    /// Checks a declaration: a version of 1 or more, every step's version in 2…`version`,
    /// named fields that are not empty and not `id`.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` naming the collection and the step.
    package static func validate(version: Int, migrations: [ModelMigration], collection: String) throws {
        guard version >= 1 else {
            throw OfflineStoreError(.configuration, "collection \(collection): schemaVersion must be 1 or more, not \(version)")
        }
        for step in migrations {
            guard (2...max(2, version)).contains(step.version), step.version <= version else {
                throw OfflineStoreError(.configuration, "collection \(collection): \(step) must lead to a version in 2…\(version) "
                    + "(version 1 is the first shape; raise schemaVersion to \(step.version) to add it)")
            }
            for field in step.namedFields where field.isEmpty || field == "id" {
                throw OfflineStoreError(.configuration, "collection \(collection): \(step) names the field '\(field)', which a migration cannot change")
            }
        }
        try validateNames(MigrationChain(version: version, migrations: migrations).steps, collection: collection)
    }

    /// Every arriving record goes through every step, so no step may bring back a name an
    /// earlier step (in the order they run) renamed away or removed: a record of the newer
    /// shape holding it would lose its value to the earlier step. A rename to the same name
    /// would remove the field.
    private static func validateNames(_ steps: [ModelMigration], collection: String) throws {
        var takenAway: [String: ModelMigration] = [:]
        for step in steps {
            if case .rename(let old, let new) = step.step, old == new {
                throw OfflineStoreError(.configuration, "collection \(collection): \(step) renames '\(old)' to itself")
            }
            for name in step.addedFields {
                guard let earlier = takenAway[name] else { continue }
                throw OfflineStoreError(.configuration, "collection \(collection): \(step) brings back '\(name)', which \(earlier) took "
                    + "away; every arriving record goes through every step (the server does not say which release wrote it), so a "
                    + "record of version \(step.version) holding '\(name)' would lose it there: give the field a new name")
            }
            for name in step.removedFields where takenAway[name] == nil { takenAway[name] = step }
        }
    }

    /// Brings `record` from version `stored` to ``version``; with `stored` nil (a record from
    /// the server, whose release is unknown) through every step.
    ///
    /// - Returns: the record in the current shape, or nil when no step changed it.
    /// - Throws: ``MigrationFailure`` when a step throws, or a transform changed the id or
    ///   left something other than a JSON object.
    package func upgrade(_ record: JSONValue, from stored: Int?, collection: String) throws(MigrationFailure) -> JSONValue? {
        var value = record
        for step in steps where stored.map({ step.version > $0 }) ?? true {
            do {
                try step.migrate(&value)
            } catch {
                throw MigrationFailure(collection: collection, id: record["id"]?.stringValue ?? "", step: step, underlying: error)
            }
            guard value.objectValue != nil, value["id"] == record["id"] else {
                throw MigrationFailure(collection: collection, id: record["id"]?.stringValue ?? "", step: step,
                                       underlying: OfflineStoreError(.invalidOperation, "the step changed the record's id or made it no object"))
            }
        }
        return value == record ? nil : value
    }
}

/// A migration step that failed for one record: the record stays as it was, and typed reads
/// report it undecodable with this error (in ``UndecodableRecord/error``'s `underlyingError`).
public struct MigrationFailure: Error, Sendable, CustomStringConvertible {
    /// The collection of the record.
    public let collection: String
    /// The record's id.
    public let id: String
    /// The version the failing step leads to.
    public let version: Int
    /// What the step threw.
    public let underlying: any Error

    init(collection: String, id: String, step: ModelMigration, underlying: any Error) {
        self.collection = collection
        self.id = id
        self.version = step.version
        self.underlying = underlying
    }

    /// The record, the version and the step's error, on one line.
    public var description: String {
        "\(collection)/\(id): the migration to version \(version) failed: \(underlying)"
    }

    /// The error typed reads report for the record.
    var decodingError: DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: description, underlyingError: self))
    }
}

/// What registering a collection at a schema version does to its stored copies: a pure
/// decision from the recorded version and the registered one.
enum SchemaVersionRule: Equatable {
    /// Nothing to migrate: the collection is new (its version is recorded), or at this version.
    case record
    /// Migrate every stored copy from `from` to `to`, then record `to`.
    case migrate(from: Int, to: Int)
    /// The store holds a newer version than the registered one: refuse, change nothing.
    case refuse(stored: Int, registered: Int)

    /// The decision for a collection recorded at `stored` (nil: never registered) and
    /// registered at `registered`.
    static func decide(stored: Int?, registered: Int) -> SchemaVersionRule {
        guard let stored else { return .record }
        if stored == registered { return .record }
        return stored < registered ? .migrate(from: stored, to: registered) : .refuse(stored: stored, registered: registered)
    }

    /// The typed error of a refusal.
    static func downgradeError(collection: String, stored: Int, registered: Int) -> OfflineStoreError {
        OfflineStoreError(.modelTooNew, "collection \(collection) is stored at schema version \(stored) by a newer release of the app; "
            + "this release reads version \(registered). Nothing was changed: update the app")
    }
}

extension MigrationChain {
    /// The failure the chain meets on `record` (a record that did not decode), if any: typed
    /// reads report such a record with the migration's error rather than the decoder's.
    func failure(of record: JSONValue, collection: String) -> MigrationFailure? {
        guard !isEmpty else { return nil }
        do throws(MigrationFailure) {
            _ = try upgrade(record, from: nil, collection: collection)
            return nil
        } catch {
            return error
        }
    }
}
