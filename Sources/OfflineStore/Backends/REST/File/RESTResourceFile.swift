import Foundation

/// REST resources described in a JSON file instead of code: what `offline-store init
/// --backend rest --resources FILE` reads, and what an app can ship as a resource.
///
/// ```json
/// {
///   "resources": {
///     "customers": { "path": "/customers", "wrapKey": "customer" },
///     "orders": {
///       "path": "/orders", "wrapKey": "order",
///       "nested": { "path": "/customers/{customer_id}/orders", "for": ["create"] },
///       "associations": { "customerId": "customers" }
///     }
///   }
/// }
/// ```
///
/// Every member of ``RESTResource`` that is data has a key of the same name; a missing
/// key keeps ``RESTResource/init(path:wrapKey:)``'s Rails default. Field codecs are named
/// (`"codecs": {"price": "decimalString"}`). Unknown keys are errors, so a misspelling
/// never goes unnoticed. The file reference is in Docs/CLI.md.
public struct RESTResourceFile: Sendable {
    /// The resource of each collection, keyed by collection name.
    public var resources: [String: RESTResource]
    /// The header carrying a create's idempotency key (`"idempotencyHeader"`, default
    /// `Idempotency-Key`; `null` sends none).
    public var idempotencyHeader: String?
    /// The most operations one push call takes (`"maxBatchSize"`, default 25).
    public var maxBatchSize: Int

    /// The field codecs a file can name.
    public static let namedCodecs: [String: RESTFieldCodec] = ["decimalString": .decimalString, "idString": .idString]

    /// Reads a resources document.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` naming the member that is wrong.
    public init(json: JSONValue) throws {
        var root = try StrictJSONObject(json, path: "")
        idempotencyHeader = try root.nullableString("idempotencyHeader") ?? "Idempotency-Key"   // null: send none
        maxBatchSize = try root.int("maxBatchSize", in: 1...1_000) ?? 25
        guard let list = root.value("resources") else { throw StrictJSONObject.error("resources", "is required") }
        var entries = try StrictJSONObject(list, path: "resources")
        var resources: [String: RESTResource] = [:]
        for name in entries.keys {
            guard let value = entries.value(name) else { throw StrictJSONObject.error(entries.at(name), "must be an object") }
            resources[name] = try Self.resource(value, path: entries.at(name))
        }
        try entries.finish()
        guard !resources.isEmpty else { throw StrictJSONObject.error("resources", "must name at least one collection") }
        for (name, resource) in resources {
            for (field, target) in resource.associations where resources[target] == nil {
                throw StrictJSONObject.error("resources.\(name).associations.\(field)", "names \"\(target)\", which has no resource")
            }
        }
        try root.finish()
        self.resources = resources
    }

    /// Reads a resources file.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` when it cannot be read, is not
    ///   JSON, or names a setting wrongly.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw OfflineStoreError(.configuration, "cannot read the REST resources file \(url.path)", underlying: String(describing: error))
        }
        let json: JSONValue
        do { json = try JSONValue(parsing: data) } catch {
            throw OfflineStoreError(.configuration, "the REST resources file \(url.path) is not valid JSON: \(error)")
        }
        try self.init(json: json)
    }

    /// A backend configuration for the server at `baseURL` with these resources.
    public func configuration(baseURL: URL, headers: [String: String] = [:], timeout: Duration = .seconds(30))
        -> RESTBackend.Configuration {
        RESTBackend.Configuration(baseURL: baseURL, resources: resources, headers: headers,
                                  idempotencyHeader: idempotencyHeader, timeout: timeout, maxBatchSize: maxBatchSize)
    }
}
