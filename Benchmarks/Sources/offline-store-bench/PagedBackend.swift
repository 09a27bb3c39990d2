import Foundation
import OfflineStore

/// A ``Backend`` that serves Kinto list pages from memory, so that refresh is measured
/// without a network: pulls go through `KintoBackend` itself (its page reader, cursors and
/// continuation tokens) over a transport that answers each `GET` with the next page's text,
/// an `ETag` and a `Next-Page` link.
///
/// Pages are either built beforehand (all in memory) or built when asked for (memory
/// stays bounded for the 1M-object run). Pushes are refused: it is a read-only server.
struct PagedBackend: Backend {
    let kinto: KintoBackend

    /// Serves the pages given.
    init(pages: [[UInt8]]) {
        self.init(PagesTransport(pageCount: pages.count) { pages[$0] })
    }

    /// Serves `count` objects, `pageSize` per page, each page built when pulled.
    init(objects count: Int, pageSize: Int) {
        self.init(PagesTransport(pageCount: (count + pageSize - 1) / pageSize) {
            Fixtures.kintoPage(($0 * pageSize)..<min(count, ($0 + 1) * pageSize))
        })
    }

    private init(_ transport: PagesTransport) {
        kinto = KintoBackend(configuration: .init(serverURL: PagesTransport.server), transport: transport)
    }

    func capabilities() async throws -> BackendCapabilities { BackendCapabilities(maxBatchSize: 25) }
    func prepare(collection: String) async throws {}
    func ping() async throws {}

    func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
        throw OfflineStoreError(.server, "the paged benchmark server is read-only")
    }

    /// Whole pages, deletions asked for (`_since`), as before the pull took a request: the
    /// rows measured with this backend stay comparable.
    func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        var asked = request
        asked.hints.needsDeletions = true
        return try await kinto.pull(asked)
    }
}

/// Answers every `GET` of a records list with one page: the first without a `page`
/// parameter, the next ones by the `page` of the `Next-Page` link it gave.
struct PagesTransport: HTTPTransport {
    static let server = URL(string: "http://127.0.0.1:1/v1")!
    let pageCount: Int
    let page: @Sendable (Int) -> [UInt8]

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let index = items.first { $0.name == "page" }.flatMap { $0.value.flatMap(Int.init) } ?? 0
        var headers = ["ETag": "\"\(Fixtures.version(Int(Int32.max)))\""]
        if index + 1 < pageCount {
            var next = URLComponents(url: request.url, resolvingAgainstBaseURL: false)!
            next.queryItems = items.filter { $0.name != "page" } + [URLQueryItem(name: "page", value: String(index + 1))]
            headers["Next-Page"] = next.url!.absoluteString
        }
        return HTTPResponse(status: 200, headers: headers, body: Data(page(index)))
    }
}
