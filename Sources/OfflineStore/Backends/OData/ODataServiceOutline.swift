import Foundation

/// One entity set as the `offline-store` tool sees it: the set's name, key, properties and
/// computed properties, read from `$metadata` by the backend's own reader
/// (``ODataMetadata``). It is `package`, not `public`: the tool's `collection add` and
/// `check-server` parse exactly as the backend does, and apps never see these types.
package struct ODataSetOutline: Sendable, Equatable {
    /// A structural property of the set's entity type.
    package struct Property: Sendable, Equatable {
        /// Its name.
        package var name: String
        /// Its type, qualified (`Edm.String`).
        package var type: String
        /// Whether it may be null.
        package var nullable: Bool
    }

    /// The set's name, e.g. `Tasks`.
    package var name: String
    /// The structural properties, in declared order.
    package var properties: [Property]
    /// The properties the server writes (`Core.Computed`).
    package var computed: Set<String>
    /// `Core.OptimisticConcurrency`'s property paths: nil when the set is not annotated.
    package var concurrency: [String]?
    /// Why the store cannot sync the set's key (several properties, an unsupported type),
    /// or nil when it can.
    package var keyProblem: String?
    let key: ODataKey?

    /// The key property's name, when the store can sync the key.
    package var keyProperty: String? { key?.property }
    /// The key property's type (`Edm.Guid`, `Edm.String`, `Edm.Int32`, `Edm.Int64`), when the store can sync it.
    package var keyType: String? { key?.type.rawValue }
    /// Whether the server assigns the key, as the backend decides it (an integer or computed
    /// key): a create sends none.
    package var serverAssignsKey: Bool

    /// Every entity set a `$metadata` document declares, by name.
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` naming what is wrong with the document.
    package static func read(metadata: Data) throws -> [String: ODataSetOutline] {
        try ODataMetadata.read(metadata).entitySets.mapValues { set in
            var keyProblem: String?
            let key: ODataKey?
            do { key = try set.key() } catch let error as OfflineStoreError {
                key = nil
                keyProblem = error.message
            }
            return ODataSetOutline(
                name: set.name, properties: set.properties.map { Property(name: $0.name, type: $0.type, nullable: $0.nullable) },
                computed: set.computed, concurrency: set.concurrency, keyProblem: keyProblem, key: key,
                serverAssignsKey: key.map(set.assignsKeys) ?? false)
        }
    }

    /// The path of one entity relative to the service root, e.g. `Tasks(6c2f…)`.
    ///
    /// - Throws: ``OfflineStoreError`` `configuration` when the key cannot be synced,
    ///   `invalidID` for an id the key cannot be.
    package func entityPath(_ id: String) throws -> String {
        guard let key else { throw OfflineStoreError(.configuration, keyProblem ?? "entity set \(name) has no key") }
        return try key.path(id)
    }

    /// The store id of an entity's key value in JSON.
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` for a value that is not the key's type.
    package func id(of entity: [String: JSONValue]) throws -> String {
        guard let key else { throw OfflineStoreError(.configuration, keyProblem ?? "entity set \(name) has no key") }
        return try key.id(of: entity[key.property] ?? .null)
    }

    /// The store id in an entity id (`…/Tasks(6c2f…)`), as a delta's removals name them.
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` for an id that is not this set's.
    package func id(ofEntityID entityID: String) throws -> String {
        guard let key else { throw OfflineStoreError(.configuration, keyProblem ?? "entity set \(name) has no key") }
        return try key.id(ofEntityID: entityID)
    }
}

/// A collection or delta answer as the tool reads it, through the backend's page reader
/// (``ODataPage``): package-visible for `check-server`.
package struct ODataPageOutline: Sendable, Equatable {
    /// The entities listed: their properties and `@odata.etag`.
    package var entities: [(properties: [String: JSONValue], etag: String?)]
    /// The removals listed: each one's entity id (`@id`) when given.
    package var removedEntityIDs: [String?]
    /// The removals' key properties, when they are named by key instead of `@id`.
    package var removedKeys: [[String: JSONValue]]
    /// `@odata.nextLink`.
    package var nextLink: String?
    /// `@odata.deltaLink`.
    package var deltaLink: String?

    /// Reads a page.
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` naming what is not a page.
    package static func read(_ body: Data) throws -> ODataPageOutline {
        let page = try ODataPage.read(body)
        return ODataPageOutline(entities: page.entities.map { ($0.properties, $0.etag) },
                                removedEntityIDs: page.removals.map(\.id), removedKeys: page.removals.map(\.keyProperties),
                                nextLink: page.nextLink, deltaLink: page.deltaLink)
    }

    /// Equal when the same entities, removals and links are listed.
    package static func == (lhs: ODataPageOutline, rhs: ODataPageOutline) -> Bool {
        lhs.entities.map(\.properties) == rhs.entities.map(\.properties) && lhs.entities.map(\.etag) == rhs.entities.map(\.etag)
            && lhs.removedEntityIDs == rhs.removedEntityIDs && lhs.removedKeys == rhs.removedKeys
            && lhs.nextLink == rhs.nextLink && lhs.deltaLink == rhs.deltaLink
    }
}

/// The body of a failed OData answer, read by the backend's reader (``ODataErrorAnswer``).
package enum ODataAnswerOutline {
    /// The body in one phrase: "error PreconditionFailed: The If-Match precondition failed.",
    /// "plain text: Unauthorized", "an HTML page (502 Bad Gateway)".
    package static func summary(_ body: Data, contentType: String?) -> String {
        ODataErrorAnswer.read(body, contentType: contentType).summary
    }
}
