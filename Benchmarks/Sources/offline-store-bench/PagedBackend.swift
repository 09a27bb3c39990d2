import OfflineStore

/// A ``Backend`` that serves Kinto list pages from memory, so that refresh is measured
/// without a network: each pull parses one page of JSON text into changes.
///
/// Pages are either built beforehand (all in memory) or built when asked for (memory
/// stays bounded for the 1M-object run). Pushes are refused: it is a read-only server.
struct PagedBackend: Backend {
    let pageCount: Int
    let page: @Sendable (Int) -> [UInt8]

    /// Serves the pages given.
    init(pages: [[UInt8]]) {
        pageCount = pages.count
        page = { pages[$0] }
    }

    /// Serves `count` objects, `pageSize` per page, each page built when pulled.
    init(objects count: Int, pageSize: Int) {
        pageCount = (count + pageSize - 1) / pageSize
        page = { Fixtures.kintoPage(($0 * pageSize)..<min(count, ($0 + 1) * pageSize)) }
    }

    func validate(id: String) throws {}
    func capabilities() async throws -> BackendCapabilities { BackendCapabilities(maxBatchSize: 25) }
    func prepare(collection: String) async throws {}
    func ping() async throws {}

    func push(_ operations: [PushOperation], collection: String) async throws -> [PushOutcome] {
        throw OfflineStoreError(.server, "the paged benchmark server is read-only")
    }

    func pull(collection: String, since cursor: String?, continuing: PullContinuation?) async throws -> PullPage {
        let index = continuing.flatMap { Int($0.token) } ?? 0
        let changes = try Fixtures.changes(ofPage: page(index))
        let next = index + 1 < pageCount ? PullContinuation(token: String(index + 1)) : nil
        return PullPage(changes: changes, cursor: changes.last?.version ?? cursor, next: next)
    }
}
