import Foundation
// Linux's Foundation keeps XMLParser in a module of its own; Apple's Foundation has it.
#if canImport(FoundationXML)
import FoundationXML
#endif

extension ODataMetadata {
    /// Reads a CSDL XML document (the answer to `GET $metadata`).
    ///
    /// - Throws: ``OfflineStoreError`` `badResponse` for a document that is not CSDL XML 4.x,
    ///   or that names a type, property, base type or entity set it does not declare.
    static func read(_ document: Data) throws -> ODataMetadata {
        // swift-corelibs-foundation's XMLParser traps on a name that is not UTF-8 (an
        // attribute name with a lone 0xC3 byte crashed the process), so the bytes are
        // checked first; OData services write their metadata in UTF-8.
        guard document.withUnsafeBytes({ UTF8Validation.isValid($0.assumingMemoryBound(to: UInt8.self)) }) else {
            throw OfflineStoreError(.badResponse, "the $metadata is not UTF-8 text")
        }
        let collector = CSDLCollector()
        let parser = XMLParser(data: document)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = collector
        let parsed = parser.parse()
        if let failure = collector.failure { throw failure }
        guard parsed else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown error"
            throw OfflineStoreError(.badResponse, "the $metadata is not well-formed XML (line \(parser.lineNumber)): \(reason)")
        }
        guard collector.sawRoot else {
            throw OfflineStoreError(.badResponse, "the $metadata is not well-formed XML: it has no element")
        }
        guard collector.closedRoot else {
            throw OfflineStoreError(.badResponse, "the $metadata is not well-formed XML: it ends before </edmx:Edmx>")
        }
        return try collector.document.resolved()
    }
}

/// The declarations of a CSDL document as written, with its aliases unresolved.
struct CSDLDocument {
    struct Annotation {
        var term: String
        var bool: Bool?
        var paths: [String] = []
    }
    struct Property {
        var name: String
        var type: String
        var nullable: Bool
        var annotations: [Annotation] = []
    }
    struct Navigation {
        var name: String
        var type: String
        var nullable: Bool
        var constraints: [ODataReferentialConstraint] = []
    }
    struct EntityType {
        var name: String
        var baseType: String?
        var key: [String] = []
        var properties: [Property] = []
        var navigation: [Navigation] = []
    }
    struct EntitySet {
        var name: String
        var type: String
        var container: String
        var bindings: [String: String] = [:]
        var annotations: [Annotation] = []
    }

    /// Alias → namespace, from `edmx:Include` and `Schema`.
    var aliases: [String: String] = [:]
    /// Entity types by qualified name (as declared: `Namespace.Name`).
    var types: [String: EntityType] = [:]
    var sets: [EntitySet] = []
    /// Out-of-line annotations: (target, annotation).
    var targeted: [(target: String, annotation: Annotation)] = []
}

/// Collects a CSDL document's declarations from XMLParser's events.
private final class CSDLCollector: NSObject, XMLParserDelegate {
    static let edmx = "http://docs.oasis-open.org/odata/ns/edmx"
    static let edm = "http://docs.oasis-open.org/odata/ns/edm"

    var document = CSDLDocument()
    var failure: OfflineStoreError?
    var sawRoot = false
    /// Whether `</edmx:Edmx>` was read (a parser may accept a document cut before it).
    var closedRoot = false

    private var path: [String] = []
    private var namespace: String?
    private var container: String?
    private var type: CSDLDocument.EntityType?
    private var property: CSDLDocument.Property?
    private var navigation: CSDLDocument.Navigation?
    private var set: CSDLDocument.EntitySet?
    private var target: String?
    private var annotation: CSDLDocument.Annotation?
    private var text = ""

    /// Keeps the first problem; the events after it are ignored. Parsing is not aborted:
    /// swift-corelibs-foundation's XMLParser can crash when `abortParsing()` is called from
    /// inside a delegate callback.
    private func fail(_ parser: XMLParser, _ message: String) {
        guard failure == nil else { return }
        failure = OfflineStoreError(.badResponse, "the $metadata (line \(parser.lineNumber)): \(message)")
    }

    private func required(_ parser: XMLParser, _ attributes: [String: String], _ name: String, of element: String) -> String? {
        guard let value = attributes[name], !value.isEmpty else {
            fail(parser, "\(element) without \(name)")
            return nil
        }
        return value
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        defer { path.append(element) }
        guard failure == nil else { return }
        if path.isEmpty {
            sawRoot = true
            guard element == "Edmx", namespaceURI == Self.edmx else {
                let version = namespaceURI?.contains("schemas.microsoft.com/ado") == true ? " (OData 2 or 3 metadata)" : ""
                return fail(parser, "the root is \(element) in \(namespaceURI ?? "no namespace")\(version), "
                    + "not edmx:Edmx of OData 4")
            }
            return
        }
        text = ""
        let parent = path.last ?? ""
        switch (element, parent) {
        case ("Include", "Reference"):
            if let alias = attributes["Alias"], let namespace = attributes["Namespace"] { document.aliases[alias] = namespace }
        case ("Schema", "DataServices"):
            guard let name = required(parser, attributes, "Namespace", of: "Schema") else { return }
            namespace = name
            if let alias = attributes["Alias"] { document.aliases[alias] = name }
        case ("EntityType", "Schema"):
            guard let name = required(parser, attributes, "Name", of: "EntityType"), let namespace else { return }
            type = CSDLDocument.EntityType(name: "\(namespace).\(name)", baseType: attributes["BaseType"])
        case ("PropertyRef", "Key"):
            guard let name = required(parser, attributes, "Name", of: "PropertyRef") else { return }
            type?.key.append(name)
        case ("Property", "EntityType"):
            guard let name = required(parser, attributes, "Name", of: "Property"),
                  let propertyType = required(parser, attributes, "Type", of: "Property \(name)") else { return }
            property = CSDLDocument.Property(name: name, type: propertyType, nullable: attributes["Nullable"] != "false")
        case ("NavigationProperty", "EntityType"):
            guard let name = required(parser, attributes, "Name", of: "NavigationProperty"),
                  let target = required(parser, attributes, "Type", of: "NavigationProperty \(name)") else { return }
            navigation = CSDLDocument.Navigation(name: name, type: target, nullable: attributes["Nullable"] != "false")
        case ("ReferentialConstraint", "NavigationProperty"):
            guard let from = required(parser, attributes, "Property", of: "ReferentialConstraint"),
                  let to = required(parser, attributes, "ReferencedProperty", of: "ReferentialConstraint") else { return }
            navigation?.constraints.append(ODataReferentialConstraint(property: from, referencedProperty: to))
        case ("EntityContainer", "Schema"):
            guard let name = required(parser, attributes, "Name", of: "EntityContainer"), let namespace else { return }
            container = "\(namespace).\(name)"
        case ("EntitySet", "EntityContainer"):
            guard let name = required(parser, attributes, "Name", of: "EntitySet"),
                  let setType = required(parser, attributes, "EntityType", of: "EntitySet \(name)"), let container else { return }
            set = CSDLDocument.EntitySet(name: name, type: setType, container: container)
        case ("NavigationPropertyBinding", "EntitySet"):
            guard let bindingPath = required(parser, attributes, "Path", of: "NavigationPropertyBinding"),
                  let target = required(parser, attributes, "Target", of: "NavigationPropertyBinding") else { return }
            set?.bindings[bindingPath] = target
        case ("Annotations", "Schema"):
            target = required(parser, attributes, "Target", of: "Annotations")
        case ("Annotation", _) where annotation == nil:
            guard let term = required(parser, attributes, "Term", of: "Annotation") else { return }
            annotation = CSDLDocument.Annotation(term: term, bool: attributes["Bool"].map { $0 == "true" })
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        guard !path.isEmpty else { return }
        path.removeLast()
        if path.isEmpty { closedRoot = true }
        guard failure == nil else { return }
        let parent = path.last ?? ""
        let content = text.trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        switch (element, parent) {
        case ("PropertyPath", "Collection"): annotation?.paths.append(content)
        case ("Bool", "Annotation"): annotation?.bool = content == "true"
        case ("Annotation", _) where path.last(where: { $0 == "Annotation" }) == nil:
            guard let finished = annotation else { return }
            annotation = nil
            if let target { document.targeted.append((target, finished)) } else if property != nil {
                property?.annotations.append(finished)
            } else if set != nil, navigation == nil {
                set?.annotations.append(finished)
            }
        case ("Property", "EntityType"):
            if let property { type?.properties.append(property) }
            property = nil
        case ("NavigationProperty", "EntityType"):
            if let navigation { type?.navigation.append(navigation) }
            navigation = nil
        case ("EntityType", "Schema"):
            if let type {
                guard document.types[type.name] == nil else { return fail(parser, "the entity type \(type.name) is declared twice") }
                document.types[type.name] = type
            }
            type = nil
        case ("EntitySet", "EntityContainer"):
            if let set { document.sets.append(set) }
            set = nil
        case ("EntityContainer", "Schema"): container = nil
        case ("Annotations", "Schema"): target = nil
        case ("Schema", _): namespace = nil
        default: break
        }
    }
}
