import Foundation

extension RESTBackend {
    /// Fetches one page of the resource's change feed: `GET <path>?updated_since=<cursor>`
    /// (no cursor: everything live), paged by page number or `Link` header.
    ///
    /// Records whose tombstone field (`deleted_at`) is set become tombstones. A record's
    /// version is its version field (`lock_version`). The page's cursor is the highest
    /// cursor field (`updated_at`) on it, compared as text, so the server must write it in
    /// one fixed format (Rails: ISO 8601 with microseconds); under `.cursor` paging a full
    /// page's cursor is the mark the next page starts from (see ``RESTResource/Paging``).
    /// Within a page, the last change of an id wins.
    ///
    /// - Throws: ``OfflineStoreError``: `configuration` (no resource), `badResponse` (not a
    ///   JSON list of records with ids and versions), `server`/`unauthorized` for error
    ///   statuses, `offline`, `timeout`.
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?) async throws -> PullPage {
        try await pull(collection: collection, since: cursor, continuing: continuing, filters: [])
    }

    /// ``pull(collection:since:continuing:)`` of the records matching `scope`. When every
    /// term is an equality on a field the resource declares in
    /// ``RESTResource/scopeParameters``, the feed is asked with those parameters
    /// (`&customer_id=7`), tombstones included; otherwise the whole feed is read and the
    /// scope applied here.
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                     scope: ServerQuery) async throws -> PullPage {
        try scope.validate()
        let resource = try resource(collection)
        if let filters = Self.scopeFilters(scope, resource: resource) {
            return try await pull(collection: collection, since: cursor, continuing: continuing, filters: filters)
        }
        return try await pull(collection: collection, since: cursor, continuing: continuing, filters: []).keeping(scope)
    }

    /// The feed's query parameters for `scope` (pure), or nil when the server cannot filter by it.
    static func scopeFilters(_ scope: ServerQuery, resource: RESTResource) -> [URLQueryItem]? {
        var items: [URLQueryItem] = []
        for term in scope.terms {
            guard term.op == .equal, let parameter = resource.scopeParameters[term.field] else { return nil }
            switch term.value {
            case .string(let text): items.append(URLQueryItem(name: parameter, value: text))
            case .int, .double, .bool: items.append(URLQueryItem(name: parameter, value: term.value.serialized()))
            default: return nil
            }
        }
        return items
    }

    /// The pull, with `filters` on every page's query (page-number and keyset links keep them).
    private func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                      filters: [URLQueryItem]) async throws -> PullPage {
        let resource = try resource(collection)
        let feed = resource.pull
        guard feed.isEnabled else { return PullPage(changes: [], cursor: nil, next: nil) }
        let what = "pulling \(collection)"
        let pageURL: URL
        var page = 1
        if let token = continuing?.token {
            guard let next = URL(string: token) else { throw OfflineStoreError(.badResponse, "\(what): bad next-page link \"\(token)\"") }
            pageURL = next
            page = Self.pageNumber(in: next, resource: resource) ?? 1
        } else {
            var query: [URLQueryItem] = filters
            if let cursor { query.append(URLQueryItem(name: feed.cursorParameter, value: cursor)) }
            switch feed.paging {
            case .pageNumber(let name, let size, let count):
                query += [URLQueryItem(name: name, value: "1"), URLQueryItem(name: size, value: String(count))]
            case .linkHeader(let size, let count), .cursor(let size, let count):
                query.append(URLQueryItem(name: size, value: String(count)))
            case .none: break
            }
            pageURL = try url(RESTRoutes(resource: resource).listPath, query: query)
        }
        let reply = try await send("GET", pageURL, what: what)
        guard reply.isSuccess else { throw reply.error(what) }
        let json = try reply.requireJSON(what)
        guard let list = (feed.listKey.map { json[$0] } ?? json)?.arrayValue else {
            throw OfflineStoreError(.badResponse, "\(what): expected a JSON array of records", status: reply.status,
                                    body: String(reply.text.prefix(2000)))
        }
        let mapping = RESTBodyMapping(resource: resource)
        var changes: [RemoteChange] = []
        var position: [String: Int] = [:]
        var marks: [String] = []
        for item in list {
            let local = try mapping.localRecord(item, what: what)
            guard let version = mapping.version(of: item) ?? item[feed.cursorField]?.stringValue else {
                throw OfflineStoreError(.badResponse, "\(what): record \(local.id) has no version field", body: item.serialized())
            }
            if let mark = item[feed.cursorField]?.stringValue { marks.append(mark) }
            let change = RemoteChange(id: local.id, record: mapping.isTombstone(item) ? nil : local.object, version: version)
            if let at = position[local.id] { changes[at] = change } else {
                position[local.id] = changes.count
                changes.append(change)
            }
        }
        let newest = marks.max()
        if case .cursor(let sizeParameter, let size) = feed.paging, list.count >= size, let resume = Self.resumeMark(marks) {
            let query = filters + [URLQueryItem(name: feed.cursorParameter, value: resume),
                                   URLQueryItem(name: sizeParameter, value: String(size))]
            let next = try url(RESTRoutes(resource: resource).listPath, query: query)
            return PullPage(changes: changes, cursor: resume, next: PullContinuation(token: next.absoluteString))
        }
        return PullPage(changes: changes, cursor: newest, next: try next(after: reply, url: pageURL, page: page,
                                                                          count: list.count, resource: resource))
    }

    /// Where the page after a full keyset page starts (pure): the second-highest distinct mark,
    /// so records sharing the highest one are read again instead of skipped; the highest when
    /// the whole page has one mark (the only way forward).
    static func resumeMark(_ marks: [String]) -> String? {
        guard let highest = marks.max() else { return nil }
        return marks.filter { $0 < highest }.max() ?? highest
    }

    private func next(after reply: RESTReply, url: URL, page: Int, count: Int, resource: RESTResource) throws -> PullContinuation? {
        switch resource.pull.paging {
        case .none, .cursor: return nil
        case .linkHeader: return reply.nextLink.map { PullContinuation(token: $0.absoluteString) }
        case .pageNumber(let name, _, let size):
            guard count >= size, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
            var items = components.queryItems ?? []
            items.removeAll { $0.name == name }
            items.append(URLQueryItem(name: name, value: String(page + 1)))
            components.queryItems = items
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
            return components.url.map { PullContinuation(token: $0.absoluteString) }
        }
    }

    private static func pageNumber(in url: URL, resource: RESTResource) -> Int? {
        guard case .pageNumber(let name, _, _) = resource.pull.paging else { return nil }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == name }?.value.flatMap { Int($0) }
    }
}
