import Foundation
import OfflineStore

/// The real Rails 6.1 app the REST tests run against (Fixtures/rails-server, started by
/// `scripts/rails-server` from `scripts/test`), its resource descriptions, and direct
/// requests that play "another client".
enum RailsServer {
    /// Why the Rails tests cannot run.
    struct NotConfigured: Error, CustomStringConvertible {
        var description: String { "RAILS_URL is not set: run the suite through scripts/test, which starts the Rails app" }
    }

    /// The base URL from `RAILS_URL`.
    ///
    /// - Throws: ``NotConfigured`` when it is unset; tests never skip silently.
    static func url() throws -> URL {
        guard let text = ProcessInfo.processInfo.environment["RAILS_URL"], !text.isEmpty,
              let url = URL(string: text) else { throw NotConfigured() }
        return url
    }

    /// The app's resources: customers (lock_version), orders (nested create under their
    /// customer, `customerId` association), products (ETag/If-Match, PUT, decimal price,
    /// bare keys, Link-header paging by 2, an `image` blob route refusing files over 1 MiB with 413).
    static var resources: [String: RESTResource] {
        let customers = RESTResource(path: "/customers", wrapKey: "customer")
        var orders = RESTResource(path: "/orders", wrapKey: "order")
        orders.nested = .init(path: "/customers/{customer_id}/orders", for: [.create])
        orders.associations = ["customerId": "customers"]
        orders.scopeParameters = ["customerId": "customer_id", "quantity": "quantity", "note": "note"]
        var products = RESTResource(path: "/products", wrapKey: "product")
        products.concurrency = .ifMatch
        products.updateMethod = .put
        products.keyStyle = .identity
        products.codecs = ["price": .decimalString]
        products.pull.paging = .linkHeader(size: 2)
        products.blobRoutes = ["image": RESTBlobRoute(path: "/products/{id}/image", partName: "image",
                                                      urlField: "image_url", sha256Field: "image_sha256",
                                                      metadataFields: ["image_filename", "image_size", "image_content_type"])]
        return ["customers": customers, "orders": orders, "products": products]
    }

    /// A backend on the real Rails app, through `transport`. Its timeout is generous: while
    /// the suite's REST workloads run beside it, puma's one thread (Fixtures/rails-server/
    /// overlay/config/puma.rb says why one) serves them in turn and a request can wait for
    /// many seconds (a lost-answer test met a 20 s timeout that way).
    static func backend(transport: any HTTPTransport = URLSessionTransport()) throws -> RESTBackend {
        RESTBackend(configuration: .init(baseURL: try url(), resources: resources, timeout: .seconds(60)),
                    transport: transport)
    }

    /// A transport that counts and breaks writes (anything but GET) to the Rails app.
    static func wire() -> WireFaultTransport {
        WireFaultTransport(base: URLSessionTransport(), isWrite: { $0.method != "GET" })
    }

    /// Sends a request as another client would; returns the status and the JSON body (nil when empty).
    @discardableResult
    static func request(_ method: String, _ path: String, _ body: JSONValue? = nil,
                        headers: [(String, String)] = []) async throws -> (status: Int, json: JSONValue?) {
        var all = headers + [("Accept", "application/json")]
        if body != nil { all.append(("Content-Type", "application/json")) }
        let request = HTTPRequest(method: method, url: URL(string: try url().absoluteString + path)!, headers: all,
                                  body: body.map { Data($0.serialized().utf8) }, timeout: .seconds(60))
        let response = try await URLSessionTransport().send(request)
        return (response.status, response.body.isEmpty ? nil : try JSONValue(parsing: response.body))
    }

    /// The largest page the test app serves (`MAX_PER_PAGE`): one request lists a whole table in tests.
    static let maxPerPage = 10_000

    /// A name no other test uses.
    static func uniqueName(_ prefix: String) -> String {
        prefix + "-" + String(UInt64.random(in: .min ... .max), radix: 36)
    }
}
