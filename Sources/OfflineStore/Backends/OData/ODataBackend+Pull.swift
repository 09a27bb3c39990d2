import Foundation

extension ODataBackend {
    /// The most entities the store asks for in one page (`Prefer: odata.maxpagesize`); a
    /// service pages as it likes below it.
    static let pageSizeHint = 1000

    /// Fetches one page of an entity set's changes.
    ///
    /// - A pull from the beginning (nil cursor) reads the set asking `Prefer: odata.track-changes`.
    ///   A service that answers with a delta link is paged by its next links, in its own order,
    ///   and the first page's delta link becomes the cursor with the last page. A service that
    ///   does not is read ordered by key and paged by key (``ODataPullState``), and stores no
    ///   cursor: every refresh is a full pull, and the engine finds deletions by absence.
    /// - A pull from a cursor reads the delta link: changed entities as records, removed ones
    ///   (`@removed`, 4.0's `$deletedEntity`) as tombstones, the new delta link as the cursor.
    ///   A delta link the service refuses (400, 404, 410, …: expired) starts a full pull within
    ///   the same pull.
    ///
    /// The scope becomes `$filter` (``ODataFilter``; delta links drop it, and the engine keeps
    /// what matches), `hints.fields` becomes `$select` (the key always in it). A page is read
    /// at once: nothing is delivered before it is returned.
    ///
    /// - Throws: `configuration` (no such set), `badResponse` (not a page; a link to another
    ///   server), `unauthorized`, `forbidden`, `server`, `offline`, `timeout`.
    public func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        let mapping = try await mapping(request.collection)
        let what = "pulling \(request.collection)"
        if let continuation = request.continuation {
            let state = try ODataPullState(continuation)
            switch state.next {
            case .link(let link):
                return try await page(try followed(link, what: what), state: state, request: request, mapping: mapping, what: what)
            case .after(let last):
                return try await page(try keyedURL(request, mapping: mapping, after: last), state: state, request: request,
                                      mapping: mapping, what: what)
            }
        }
        if let cursor = request.cursor {
            let reply = try await send("GET", try followed(cursor, what: what), what: what)
            if ODataPullState.refusesDeltaLink(status: reply.status) {
                return try await firstPage(request, mapping: mapping, restarted: true, what: what)
            }
            return try await page(reply, state: ODataPullState(next: .link(cursor), deltaLink: nil, restarted: false, delta: true),
                                  delta: true, request: request, mapping: mapping, what: what)
        }
        return try await firstPage(request, mapping: mapping, restarted: false, what: what)
    }

    /// The first page of a full pull, asking for change tracking.
    ///
    /// A set not yet known to lack change tracking is asked in the service's own order: a
    /// service that tracks changes is paged by its own next links (whose tokens hold the key),
    /// and ordering by key would cost it a sort of the set at every page. Only when that answer
    /// brings no delta link (once per set and backend) is the set asked again ordered by key,
    /// to be paged by key.
    private func firstPage(_ request: PullRequest, mapping: ODataRecordMapping, restarted: Bool, what: String) async throws -> PullPage {
        let prefer = [("Prefer", "odata.track-changes,odata.maxpagesize=\(Self.pageSizeHint)")]
        if service.withLock({ $0.tracksChanges[mapping.set.name] }) != false {
            let url = try keyedURL(request, mapping: mapping, after: nil, ordered: false)
            let reply = try await send("GET", url, headers: prefer, what: what)
            let tracks = reply.isSuccess && (try? ODataPage.read(reply.body))?.deltaLink != nil
            if tracks || !reply.isSuccess {
                return try await page(reply, state: ODataPullState(next: .link(url.absoluteString), deltaLink: nil, restarted: restarted),
                                      delta: false, request: request, mapping: mapping, what: what, first: true)
            }
            service.withLock { $0.tracksChanges[mapping.set.name] = false }
        }
        let url = try keyedURL(request, mapping: mapping, after: nil)
        let reply = try await send("GET", url, headers: prefer, what: what)
        return try await page(reply, state: ODataPullState(next: .link(url.absoluteString), deltaLink: nil, restarted: restarted),
                              delta: false, request: request, mapping: mapping, what: what, first: true)
    }

    /// GETs a later page of a full pull or delta.
    private func page(_ url: URL, state: ODataPullState, request: PullRequest, mapping: ODataRecordMapping,
                      what: String) async throws -> PullPage {
        let prefer = "odata.maxpagesize=\(Self.pageSizeHint)"
        let reply = try await send("GET", url, headers: [("Prefer", prefer)], what: what)
        return try await page(reply, state: state, delta: state.delta, request: request, mapping: mapping, what: what)
    }

    /// Reads one answer as a page and says how the pull goes on.
    private func page(_ reply: ODataReply, state: ODataPullState, delta: Bool, request: PullRequest,
                      mapping: ODataRecordMapping, what: String, first: Bool = false) async throws -> PullPage {
        guard reply.isSuccess else { throw reply.error(what) }
        let page: ODataPage
        do { page = try ODataPage.read(reply.body) } catch let error as OfflineStoreError {
            if (try? JSONValue(parsing: reply.body)) == nil { throw OfflineStoreError(.badResponse, "\(what): \(reply.notJSON)") }
            throw OfflineStoreError(.badResponse, "\(what): \(error.message)")
        }
        let changes = try Self.changes(of: page, mapping: mapping, what: what)
        var state = state
        if first {
            let tracks = page.deltaLink != nil
            state.deltaLink = page.deltaLink
            service.withLock { $0.tracksChanges[mapping.set.name] = tracks }
        }
        let tracking = delta || state.deltaLink != nil
        guard let nextLink = page.nextLink else {
            // The last page: a delta's own link, or the first page's.
            let cursor = delta ? (page.deltaLink ?? request.cursor) : state.deltaLink
            return Self.page(changes, cursor: cursor, next: nil, state: state)
        }
        if tracking {
            state.next = .link(nextLink)
        } else {
            guard let last = changes.last?.id else { return Self.page(changes, cursor: nil, next: nil, state: state) }
            state.next = .after(last)
        }
        return Self.page(changes, cursor: nil, next: state.continuation, state: state)
    }

    private static func page(_ changes: [RemoteChange], cursor: String?, next: PullContinuation?, state: ODataPullState) -> PullPage {
        var page = PullPage(changes: changes, cursor: cursor, next: next)
        page.restartedFromTheBeginning = state.restarted
        return page
    }

    /// A page's entries as changes; within a page the last change of an id wins.
    static func changes(of page: ODataPage, mapping: ODataRecordMapping, what: String) throws -> [RemoteChange] {
        var changes: [RemoteChange] = []
        var position: [String: Int] = [:]
        for entry in page.entries {
            let change: RemoteChange
            switch entry {
            case .entity(let entity):
                let (id, object) = try mapping.object(entity.properties, what: what)
                guard let etag = entity.etag else {
                    throw OfflineStoreError(.badResponse, "\(what): the entity \(id) has no @odata.etag; the store needs "
                        + "ETags to send updates with If-Match")
                }
                change = RemoteChange(id: id, record: object, version: etag)
            case .removed(let removal):
                let id: String
                if let key = removal.keyProperties[mapping.key.property] {
                    id = try mapping.key.id(of: key)
                } else if let entityID = removal.id {
                    id = try mapping.key.id(ofEntityID: entityID)
                } else {
                    throw OfflineStoreError(.badResponse, "\(what): a removed entry names neither its id nor its key")
                }
                change = RemoteChange(id: id, record: nil, version: removedVersion)
            }
            if let at = position[change.id] { changes[at] = change } else {
                position[change.id] = changes.count
                changes.append(change)
            }
        }
        return changes
    }

    /// The version a removal carries: the service names none.
    static let removedVersion = "removed"

    /// `Set?$filter=…&$orderby=Key[&$select=…]`, the keys after `after` when given; without
    /// `$orderby` when not `ordered` (a read the service pages in its own order).
    func keyedURL(_ request: PullRequest, mapping: ODataRecordMapping, after: String?, ordered: Bool = true) throws -> URL {
        var filters: [String] = []
        if let scope = ODataFilter.expression(request.scope, mapping: mapping) { filters.append("(\(scope))") }
        if let after {
            guard let literal = ODataFilter.literal(.string(after), type: mapping.key.type.rawValue) else {
                throw OfflineStoreError(.badResponse, "pulling \(mapping.set.name): \(after) is not a key of \(mapping.key.type.rawValue)")
            }
            filters.append("\(mapping.key.property) gt \(literal)")
        }
        var query: [String] = []
        if !filters.isEmpty { query.append("$filter=" + ODataFilter.encoded(filters.joined(separator: " and "))) }
        if ordered { query.append("$orderby=" + ODataFilter.encoded(mapping.key.property)) }
        if let fields = request.hints.fields {
            let names = [mapping.key.property] + fields.filter { $0 != "id" && mapping.set.property($0) != nil && $0 != mapping.key.property }
            query.append("$select=" + ODataFilter.encoded(names.joined(separator: ",")))
        }
        let set = mapping.set.name.addingPercentEncoding(withAllowedCharacters: ODataKey.literalCharacters) ?? mapping.set.name
        return try url(set + "?" + query.joined(separator: "&"))
    }
}
