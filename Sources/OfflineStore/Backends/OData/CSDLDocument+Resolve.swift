import Foundation

/// Turns the declarations as written into ``ODataMetadata``: aliases resolved, base types
/// followed, out-of-line annotations put on what they target, and every name an entity set
/// depends on checked to be declared.
extension CSDLDocument {
    static let computedTerm = "Org.OData.Core.V1.Computed"
    static let concurrencyTerm = "Org.OData.Core.V1.OptimisticConcurrency"

    /// - Throws: ``OfflineStoreError`` `badResponse` naming what an entity set refers to and
    ///   the document does not declare.
    func resolved() throws -> ODataMetadata {
        var sets: [String: ODataEntitySet] = [:]
        for set in self.sets {
            guard sets[set.name] == nil else { throw bad("the entity set \(set.name) is declared twice") }
            sets[set.name] = try resolve(set)
        }
        return ODataMetadata(entitySets: sets)
    }

    /// `Self.Task` → `Fixture.Task`, `Collection(Self.Task)` → `Collection(Fixture.Task)`;
    /// `Edm.*` and unknown qualifiers stay as written.
    func qualified(_ name: String) -> String {
        if name.hasPrefix("Collection("), name.hasSuffix(")") {
            return "Collection(\(qualified(String(name.dropFirst(11).dropLast()))))"
        }
        guard let dot = name.lastIndex(of: ".") else { return name }
        let qualifier = String(name[..<dot])
        guard let namespace = aliases[qualifier] else { return name }
        return namespace + name[dot...]
    }

    private func resolve(_ set: EntitySet) throws -> ODataEntitySet {
        let typeName = qualified(set.type)
        let chain = try inheritance(of: typeName, for: set.name)
        let key = chain.last { !$0.key.isEmpty }?.key ?? []
        let properties = chain.flatMap(\.properties)
        let navigation = chain.flatMap(\.navigation)
        guard !key.isEmpty else { throw bad("entity set \(set.name): its type \(typeName) has no key") }
        for name in key where !properties.contains(where: { $0.name == name }) {
            throw bad("entity set \(set.name): the key \(name) of \(typeName) is not one of its properties")
        }
        var computed = Set(properties.filter { isTrue(Self.computedTerm, in: $0.annotations) }.map(\.name))
        var concurrency = annotation(Self.concurrencyTerm, in: set.annotations)?.paths
        for (target, annotation) in targeted {
            let parts = target.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let owner = qualified(parts[0])
            if chain.contains(where: { $0.name == owner }), properties.contains(where: { $0.name == parts[1] }),
               qualified(annotation.term) == Self.computedTerm {
                if annotation.bool ?? true { computed.insert(parts[1]) } else { computed.remove(parts[1]) }
            }
            if owner == set.container, parts[1] == set.name, qualified(annotation.term) == Self.concurrencyTerm {
                concurrency = annotation.paths
            }
        }
        return ODataEntitySet(
            name: set.name, entityType: typeName, keyProperties: key,
            properties: properties.map { ODataProperty(name: $0.name, type: qualified($0.type), nullable: $0.nullable) },
            navigation: try navigation.map { try resolve($0, in: set) },
            computed: computed, concurrency: concurrency)
    }

    private func resolve(_ navigation: Navigation, in set: EntitySet) throws -> ODataNavigation {
        var target = qualified(navigation.type)
        let isCollection = target.hasPrefix("Collection(")
        if isCollection { target = String(target.dropFirst(11).dropLast()) }
        guard types[target] != nil else {
            throw bad("entity set \(set.name): the navigation property \(navigation.name) refers to \(target), "
                + "which is not a declared entity type")
        }
        var targetSet = set.bindings[navigation.name]
        if let bound = targetSet, let slash = bound.lastIndex(of: "/") {
            targetSet = String(bound[bound.index(after: slash)...])  // `Container/Customers`
        }
        if let targetSet, !sets.contains(where: { $0.name == targetSet }) {
            throw bad("entity set \(set.name): the navigation property \(navigation.name) is bound to \(targetSet), "
                + "which is not a declared entity set")
        }
        return ODataNavigation(name: navigation.name, targetType: target, isCollection: isCollection,
                               nullable: navigation.nullable, targetSet: targetSet, constraints: navigation.constraints)
    }

    /// The type and its base types, the most basic first.
    private func inheritance(of name: String, for set: String) throws -> [EntityType] {
        var chain: [EntityType] = []
        var next: String? = name
        while let current = next {
            guard let type = types[current] else {
                throw bad("entity set \(set): \(current) is not a declared entity type")
            }
            guard !chain.contains(where: { $0.name == current }) else {
                throw bad("entity set \(set): the base types of \(name) form a cycle")
            }
            chain.insert(type, at: 0)
            next = type.baseType.map(qualified)
        }
        return chain
    }

    private func annotation(_ term: String, in annotations: [Annotation]) -> Annotation? {
        annotations.last { qualified($0.term) == term }
    }

    /// A tag term is true when it carries no value.
    private func isTrue(_ term: String, in annotations: [Annotation]) -> Bool {
        annotation(term, in: annotations).map { $0.bool ?? true } ?? false
    }

    private func bad(_ message: String) -> OfflineStoreError {
        OfflineStoreError(.badResponse, "the $metadata: \(message)")
    }
}
