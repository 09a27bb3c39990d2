import Foundation

/// What a service's `$metadata` (CSDL XML, OData 4.0/4.01) says about its entity sets, as
/// far as syncing them needs: each set's entity type, key, properties and their types,
/// which properties the server computes (`Org.OData.Core.V1.Computed`), its navigation
/// properties (references to other sets), and the properties behind its ETags
/// (`Org.OData.Core.V1.OptimisticConcurrency`).
///
/// ``read(_:)`` (in `ODataMetadataReader.swift`) is a pure function from the document's
/// bytes to this value or an ``OfflineStoreError`` `badResponse` naming what is wrong.
/// Aliases (`Core.Computed`, `Self.Task`) are resolved; names here are always qualified by
/// namespace. Inherited keys and properties (`BaseType`) are included.
struct ODataMetadata: Sendable, Equatable {
    /// The entity sets of the service's entity container(s), by name.
    var entitySets: [String: ODataEntitySet]

    /// The entity set `name`.
    ///
    /// - Throws: ``OfflineStoreError`` `configuration` naming the sets there are.
    func entitySet(_ name: String) throws -> ODataEntitySet {
        guard let set = entitySets[name] else {
            throw OfflineStoreError(.configuration, "the service has no entity set \(name) (its sets: "
                + "\(entitySets.keys.sorted().joined(separator: ", ")))")
        }
        return set
    }
}

/// One entity set, with what its entity type declares.
struct ODataEntitySet: Sendable, Equatable {
    /// The set's name, e.g. `Tasks`.
    var name: String
    /// Its entity type, qualified by namespace, e.g. `Fixture.Task`.
    var entityType: String
    /// The names of the key properties, in order (one for every set the store can sync).
    var keyProperties: [String]
    /// The structural properties, inherited ones first, in declared order.
    var properties: [ODataProperty]
    /// The navigation properties, inherited ones first, in declared order.
    var navigation: [ODataNavigation]
    /// The properties annotated `Org.OData.Core.V1.Computed` (true): the server writes them.
    var computed: Set<String>
    /// The property paths of `Org.OData.Core.V1.OptimisticConcurrency` on the set; nil when
    /// the set is not annotated, empty when the annotation lists none (a server may still
    /// send ETags then).
    var concurrency: [String]?

    /// The structural property `name`, if declared.
    func property(_ name: String) -> ODataProperty? {
        properties.first { $0.name == name }
    }

    /// Whether the server assigns the set's keys: an integer key (the client cannot choose
    /// one that is still free), or a key the metadata marks computed.
    func assignsKeys(_ key: ODataKey) -> Bool {
        key.type == .int32 || key.type == .int64 || computed.contains(key.property)
    }

    /// The set's key, if the store can sync it: one property, of type Guid, String, Int32 or Int64.
    ///
    /// - Throws: ``OfflineStoreError`` `configuration` naming the key and why not.
    func key() throws -> ODataKey {
        guard keyProperties.count == 1, let name = keyProperties.first else {
            throw OfflineStoreError(.configuration, "entity set \(name): its key has \(keyProperties.count) properties "
                + "(\(keyProperties.joined(separator: ", "))); the store syncs sets whose key is one property")
        }
        guard let property = property(name) else {
            throw OfflineStoreError(.configuration, "entity set \(self.name): its key \(name) is not a declared property")
        }
        guard let type = ODataKeyType(rawValue: property.type) else {
            throw OfflineStoreError(.configuration, "entity set \(self.name): its key \(name) is \(property.type); the store "
                + "syncs keys of \(ODataKeyType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return ODataKey(entitySet: self.name, property: name, type: type)
    }
}

/// A structural property.
struct ODataProperty: Sendable, Equatable {
    /// Its name.
    var name: String
    /// Its type, qualified, aliases resolved: `Edm.String`, `Fixture.Address`,
    /// `Collection(Edm.String)`.
    var type: String
    /// Whether it may be null (CSDL's default: true).
    var nullable: Bool
}

/// A navigation property: a reference to entities of another (or the same) type.
struct ODataNavigation: Sendable, Equatable {
    /// Its name, e.g. `Customer`.
    var name: String
    /// The target entity type, qualified, without `Collection(…)`.
    var targetType: String
    /// Whether it refers to many entities (`Collection(…)`).
    var isCollection: Bool
    /// Whether it may be null.
    var nullable: Bool
    /// The entity set it points into (the set's `NavigationPropertyBinding`), when bound.
    var targetSet: String?
    /// Its referential constraints: (property of this type, property of the target).
    var constraints: [ODataReferentialConstraint]
}

/// `ReferentialConstraint`: this entity's `property` holds the target's `referencedProperty`.
struct ODataReferentialConstraint: Sendable, Equatable {
    /// The dependent property, e.g. `CustomerID`.
    var property: String
    /// The principal's property, e.g. `ID`.
    var referencedProperty: String
}
