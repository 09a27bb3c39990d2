/// What a collection is: its name, schema and policies. Registered once per store.
///
/// ```swift
/// try store.register(CollectionDescriptor("todos", conflictPolicy: .merge))
/// try store.register(CollectionDescriptor("products", fields: [
///     FieldSchema("name", .string, required: true, indexed: true),
///     FieldSchema("price", .number),
/// ]))
/// ```
public struct CollectionDescriptor: Sendable {
    /// The collection's name (1–128 bytes, no control characters).
    public var name: String
    /// Declared fields; nil for a property bag that takes any JSON object.
    public var fields: [FieldSchema]?
    /// Whether the collection never syncs (RhoConnect's local partition).
    public var isLocalOnly: Bool
    /// The update policy; nil uses the store's default.
    public var updatePolicy: UpdatePolicy?
    /// How conflicts are settled. A `.custom` resolver is not stored: register it again after reopening.
    public var conflictPolicy: ConflictPolicy
    /// Fields that hold binary attachments (see ``BlobField``); empty by default.
    public var blobFields: [BlobField] = []
    /// The subset of the server's records this store keeps in sync (Docs/Policies.md, "Sync
    /// scopes"): `refresh` pulls only records matching it, and removes local copies of
    /// records that stop matching (unless they have pending edits or a conflict). Nil: the
    /// whole collection. Local edits are pushed whatever the scope.
    public var syncScope: ServerQuery?
    /// What a sync does with the local data when the server stops letting the user read the
    /// collection (``ReadAccessLossPolicy``): ``ReadAccessLossPolicy/keep`` (the default) or
    /// ``ReadAccessLossPolicy/purge``.
    public var readAccessLoss: ReadAccessLossPolicy = .keep
    /// Whether the collection holds data shared by every user of the device (the app
    /// partition; see ``partition``). Default false.
    var isAppShared = false
    /// The version of the shape of the collection's records; 1 unless it evolved. Registering
    /// a higher version than the store holds migrates the stored copies with ``migrations``;
    /// a lower one is refused with ``OfflineStoreError/Code/modelTooNew`` (Docs/Models.md,
    /// "Evolving a model"). A model's collection takes ``SyncModel/schemaVersion``.
    public var schemaVersion = 1
    /// The steps from one version to the next (``ModelMigration``), each leading to a version
    /// in 2…``schemaVersion``; empty by default. A chain of renames, added and removed fields
    /// is kept with the collection's definition, so every process that opens the store (the
    /// `offline-store` tool too) brings records that arrive from the server to the current
    /// shape. A chain with a ``ModelMigration/transform(in:_:)`` lives in memory, like a custom
    /// conflict resolver: register the collection again after reopening.
    public var migrations: [ModelMigration] = []

    /// Describes a collection.
    public init(
        _ name: String,
        fields: [FieldSchema]? = nil,
        localOnly: Bool = false,
        updatePolicy: UpdatePolicy? = nil,
        conflictPolicy: ConflictPolicy = .preserveConflict
    ) {
        self.name = name
        self.fields = fields
        self.isLocalOnly = localOnly
        self.updatePolicy = updatePolicy
        self.conflictPolicy = conflictPolicy
    }

    /// Describes a collection with blob fields.
    public init(
        _ name: String,
        fields: [FieldSchema]? = nil,
        blobFields: [BlobField],
        localOnly: Bool = false,
        updatePolicy: UpdatePolicy? = nil,
        conflictPolicy: ConflictPolicy = .preserveConflict
    ) {
        self.init(name, fields: fields, localOnly: localOnly, updatePolicy: updatePolicy, conflictPolicy: conflictPolicy)
        self.blobFields = blobFields
    }

    /// Whether the collection has a fixed schema.
    public var hasFixedSchema: Bool { fields != nil }

    /// This descriptor at `version`, with the steps that lead there (a model's collection).
    func evolving(to version: Int, _ steps: [ModelMigration]) -> CollectionDescriptor {
        var copy = self
        copy.schemaVersion = version
        copy.migrations = steps
        return copy
    }

    /// The migration steps in the order they run.
    var migrationChain: MigrationChain { MigrationChain(version: schemaVersion, migrations: migrations) }

    func validateDefinition() throws {
        guard !name.isEmpty, name.utf8.count <= 128, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { throw OfflineStoreError(.invalidOperation, "collection name must be 1–128 bytes without control characters") }
        var seen = Set<String>()
        for field in fields ?? [] {
            guard FieldSchema.isValidName(field.name), field.name != "id" else {
                throw OfflineStoreError(.invalidFieldPath, "field name '\(field.name)' must be letters, digits and '_' (and not 'id')")
            }
            guard seen.insert(field.name).inserted else {
                throw OfflineStoreError(.invalidFieldPath, "field '\(field.name)' is declared twice")
            }
        }
        try validateBlobFields()
        try MigrationChain.validate(version: schemaVersion, migrations: migrations, collection: name)
        if let syncScope {
            guard !isLocalOnly else {
                throw OfflineStoreError(.invalidOperation, "collection \(name) is local-only: it has no server records to scope")
            }
            try syncScope.validate()
        }
    }

    /// Checks an object against the declared fields.
    ///
    /// - Throws: ``OfflineStoreError/Code/schemaViolation`` naming the field and the reason.
    func validate(_ object: [String: JSONValue]) throws {
        try validateBlobValues(object)
        guard let fields else { return }
        var declared: [String: FieldSchema] = [:]
        for f in fields { declared[f.name] = f }
        for (key, value) in object where key != "id" && !isBlobField(key) {
            guard let field = declared[key] else {
                throw OfflineStoreError(.schemaViolation, "collection \(name): field '\(key)' is not declared")
            }
            if value == .null {
                if field.isRequired { throw OfflineStoreError(.schemaViolation, "collection \(name): field '\(key)' is required") }
                continue
            }
            guard field.accepts(value) else {
                throw OfflineStoreError(.schemaViolation, "collection \(name): field '\(key)' must be \(field.type.rawValue), got \(value.typeName)")
            }
        }
        for field in fields where field.isRequired && object[field.name] == nil {
            throw OfflineStoreError(.schemaViolation, "collection \(name): field '\(field.name)' is required")
        }
    }
}

/// The stored form of a descriptor (a custom conflict resolver is not storable).
struct StoredDescriptor: Codable, Sendable, Hashable {
    var fields: [FieldSchema]?
    var localOnly: Bool
    var updatePolicy: UpdatePolicy?
    var conflictPolicy: String
    /// Absent (nil) when the collection has no blob fields, so older stored descriptors compare equal.
    var blobFields: [BlobField]?
    /// Absent (nil) for the whole collection.
    var syncScope: ServerQuery?
    /// Absent (nil) for ``ReadAccessLossPolicy/keep``, so older stored descriptors compare equal.
    var readAccessLoss: ReadAccessLossPolicy?
    /// The migration steps when every one is declarative (``StoredMigration``); absent (nil)
    /// otherwise, so older stored descriptors compare equal.
    var migrations: [StoredMigration]?

    init(_ d: CollectionDescriptor) {
        fields = d.fields
        localOnly = d.isLocalOnly
        updatePolicy = d.updatePolicy
        conflictPolicy = d.conflictPolicy.name
        blobFields = d.blobFields.isEmpty ? nil : d.blobFields
        syncScope = d.syncScope.flatMap { $0.terms.isEmpty ? nil : $0 }
        readAccessLoss = d.readAccessLoss == .keep ? nil : d.readAccessLoss
        migrations = StoredMigration.chain(d.migrations)
    }

    func descriptor(named name: String) -> CollectionDescriptor {
        var d = CollectionDescriptor(
            name, fields: fields, blobFields: blobFields ?? [], localOnly: localOnly, updatePolicy: updatePolicy,
            conflictPolicy: ConflictPolicy(name: conflictPolicy) ?? .preserveConflict)
        d.syncScope = syncScope
        d.readAccessLoss = readAccessLoss ?? .keep
        d.migrations = migrations?.compactMap(\.migration) ?? []
        return d
    }
}
