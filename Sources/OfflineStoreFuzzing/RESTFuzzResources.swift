import Foundation
import OfflineStore

/// The REST resources the REST targets read answers for: the shapes of the Rails and DRF test
/// apps (Fixtures/rails-resources.json, drf-resources.json, drf-plain-resources.json) and the
/// other paging kinds, chosen by an input's first byte.
enum RESTFuzzResources {
    static let baseURL = URL(string: "http://127.0.0.1:3000")!

    /// Whether `url` is on ``baseURL``'s origin (scheme, host and port).
    static func isServerOrigin(_ url: URL) -> Bool {
        url.scheme?.lowercased() == "http" && url.host?.lowercased() == "127.0.0.1" && (url.port ?? 80) == 3000
    }

    /// The collection every resource is configured as.
    static let collection = "items"

    static let all: [RESTResource] = [rails, drfRecipe, drfPlain, linkHeader, limitOffset, pageNumber, wholeList, mapped]

    /// The resource `choice` picks.
    static func resource(_ choice: UInt8) -> RESTResource { all[Int(choice) % all.count] }

    /// A backend over `transport` with `resource` as its one collection.
    static func backend(_ resource: RESTResource, transport: any HTTPTransport) -> RESTBackend {
        RESTBackend(configuration: .init(baseURL: baseURL, resources: [collection: resource],
                                         headers: ["Authorization": "Bearer fuzz"], timeout: .seconds(5)),
                    transport: transport)
    }

    /// Rails: bare arrays, keyset pages of 2 over `updated_at`, `deleted_at` tombstones, `lock_version`.
    static var rails: RESTResource {
        var resource = RESTResource(path: "/customers", wrapKey: "customer")
        resource.pull.paging = .cursor(size: 2)
        return resource
    }

    /// The DRF server recipe: `results` and `count`, keyset pages, ETags.
    static var drfRecipe: RESTResource {
        var resource = RESTResource(path: "/recipe/demo/tasks/")
        resource.formatSuffix = nil
        resource.concurrency = .ifMatch
        resource.versionField = "version"
        resource.ids = .client
        resource.pull = .init(listKey: "results", countField: "count", paging: .cursor(sizeParameter: "limit", size: 2))
        return resource
    }

    /// DRF's defaults: page links in the body, no cursor, deletions by sweep.
    static var drfPlain: RESTResource {
        var resource = RESTResource(path: "/plain/demo/tasks/")
        resource.formatSuffix = nil
        resource.concurrency = .none
        resource.versionField = nil
        resource.lostCreates = .refresh
        resource.pull = .init(cursorParameter: nil, tombstoneField: nil, listKey: "results", countField: "count",
                              deletions: .sweep, paging: .bodyLink(nextField: "next"))
        return resource
    }

    /// `Link: <…>; rel="next"` pages, identity keys, a decimal field (Rails `products`).
    static var linkHeader: RESTResource {
        var resource = RESTResource(path: "/products", wrapKey: "product")
        resource.concurrency = .ifMatch
        resource.updateMethod = .put
        resource.keyStyle = .identity
        resource.codecs = ["price": .decimalString]
        resource.pull.paging = .linkHeader(size: 2)
        return resource
    }

    /// `limit`/`offset` pages with the count and the list under dotted paths.
    static var limitOffset: RESTResource {
        var resource = RESTResource(path: "/v2/items")
        resource.formatSuffix = nil
        resource.pull = .init(listKey: "data.items", countField: "meta.total", paging: .limitOffset(size: 2))
        return resource
    }

    /// Page numbers.
    static var pageNumber: RESTResource {
        var resource = RESTResource(path: "/orders", wrapKey: "order")
        resource.associations = ["customerId": "customers"]
        resource.pull.paging = .pageNumber(size: 2)
        return resource
    }

    /// One request for the whole list, no cursor, no tombstones.
    static var wholeList: RESTResource {
        var resource = RESTResource(path: "/all")
        resource.pull = .init(cursorParameter: nil, tombstoneField: nil, deletions: .sweep, paging: .none)
        return resource
    }

    /// Renames, never-sent fields, a body link under a dotted path, client ids.
    static var mapped: RESTResource {
        var resource = RESTResource(path: "/notes", wrapKey: "note")
        resource.renames = ["title": "heading"]
        resource.neverSent = ["created_at", "updated_at", "owner"]
        resource.ids = .client
        resource.codecs = ["amount": .decimalString]
        resource.pull = .init(listKey: "data", paging: .bodyLink(nextField: "links.next", sizeParameter: "size", size: 2))
        return resource
    }

    /// The codes a REST call may fail with when the server's answers are anything at all.
    static let answerCodes: Set<OfflineStoreError.Code> = [.badResponse, .configuration, .server, .unauthorized, .forbidden, .timeout]
}
