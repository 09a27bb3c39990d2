import Foundation

extension RESTBackend {
    /// Fetches one page of the resource's change feed: `GET <path>?updated_since=<cursor>`
    /// (no cursor, or a feed without a cursor parameter: everything live), paged as
    /// ``RESTResource/PullFeed/paging`` says (keyset, page number, offset, `Link` header, or a
    /// next link in the body), the records bare or in an envelope (``RESTResource/PullFeed/listKey``).
    ///
    /// Records whose tombstone field (`deleted_at`) is set become tombstones. A record's
    /// version is its version field (`lock_version`), else its cursor field. The cursor is
    /// the highest cursor field (`updated_at`) of the pull, compared as text, so the server
    /// must write it in one fixed format (Rails: ISO 8601 with microseconds), stored with the
    /// last page; under `.cursor` paging a full page's cursor is the mark the next page starts
    /// from (see ``RESTResource/Paging``). Within a page, the last change of an id wins. An
    /// empty page, or a 404 for a page after the first, ends the pull.
    ///
    /// - Throws: ``OfflineStoreError``: `configuration` (no resource; a list not where
    ///   `listKey` says; a page that repeats the one before, naming the setting the server
    ///   ignores; a redirect), `badResponse` (not JSON records with ids and versions; fewer
    ///   records than the envelope's `countField` announced), `server`/`unauthorized` for
    ///   error statuses, `offline`, `timeout`.
    ///
    /// A ``PullRequest/scope``: when every term is an equality on a field the resource
    /// declares in ``RESTResource/scopeParameters``, the feed is asked with those parameters
    /// (`&customer_id=7`), tombstones included; otherwise the whole feed is read and the scope
    /// applied here. The hints are not used: the feed lists whole records, deletions included.
    /// A page is read at once: nothing is delivered before it is returned.
    public func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        let (collection, cursor, continuing) = (request.collection, request.cursor, request.continuation)
        guard let scope = request.scope else {
            return try await pull(collection: collection, since: cursor, continuing: continuing, filters: [])
        }
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

    /// The pull, with `filters` on every page's query (page-number, offset and keyset links keep them).
    private func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                      filters: [URLQueryItem]) async throws -> PullPage {
        let resource = try resource(collection)
        let feed = resource.pull
        guard feed.isEnabled else { return PullPage(changes: [], cursor: nil, next: nil) }
        let what = "pulling \(collection)"
        if case .cursor = feed.paging, feed.cursorParameter == nil {
            throw OfflineStoreError(.configuration, "\(what): cursor paging needs \(RESTPullProblem.setting(collection, "cursorParameter"))")
        }
        let asked = feed.cursorParameter == nil ? nil : cursor
        let state = try continuing.map { try RESTPullState(token: $0.token, what: what) }
            ?? RESTPullState(url: try firstPageURL(resource, cursor: asked, filters: filters), askedCursor: asked)
        let reply = try await send("GET", state.url, what: what)
        // A page past the end: DRF answers 404 ("Invalid page") for a page number beyond the last.
        if !state.isFirstPage, reply.status == 404 || reply.status == 410 {
            return try lastPage([], state: state, count: 0, newest: nil, collection: collection, what: what)
        }
        guard reply.isSuccess else { throw reply.error(what) }
        let json = try reply.requireJSON(what)
        guard let list = (feed.listKey.map { json.value(atPath: $0) } ?? json)?.arrayValue else {
            throw RESTPullProblem.noList(collection, listKey: feed.listKey, json: json, reply: reply, what: what)
        }
        var current = state
        if current.isFirstPage, let field = feed.countField, let count = json.value(atPath: field)?.intValue { current.announced = Int(count) }
        let (changes, marks) = try records(list, resource: resource, what: what)
        if !changes.isEmpty, RESTPullState.fingerprint(changes) == current.previous {
            throw RESTPullProblem.repeatedPage(collection, paging: feed.paging, cursorParameter: feed.cursorParameter,
                                               url: current.url.absoluteString, what: what)
        }
        let newest = marks.max()
        guard !list.isEmpty,
              let next = try nextPage(after: reply, json: json, state: current, count: list.count, marks: marks,
                                      resource: resource, filters: filters, what: what) else {
            return try lastPage(changes, state: current, count: list.count, newest: newest, collection: collection, what: what)
        }
        if next.url == current.url {
            throw RESTPullProblem.sameRequest(collection, paging: feed.paging, size: Self.size(of: feed.paging),
                                              cursor: next.cursor, url: next.url.absoluteString, what: what)
        }
        let following = current.advanced(to: next.url, changes: changes, count: list.count, newest: newest, askedCursor: next.cursor)
        // Keyset pages are safe to resume from; the other kinds store a cursor only with the last page
        // (their pages need not follow the cursor's order).
        let storing: String? = if case .cursor = feed.paging { next.cursor } else { nil }
        return PullPage(changes: changes, cursor: storing, next: PullContinuation(token: following.token), total: current.announced)
    }

    /// The first page's URL: the cursor (unless the feed has none), then the paging's size.
    private func firstPageURL(_ resource: RESTResource, cursor: String?, filters: [URLQueryItem]) throws -> URL {
        var query = filters
        if let cursor, let parameter = resource.pull.cursorParameter { query.append(URLQueryItem(name: parameter, value: cursor)) }
        switch resource.pull.paging {
        case .pageNumber(let name, let size, let count):
            query += [URLQueryItem(name: name, value: "1"), URLQueryItem(name: size, value: String(count))]
        case .linkHeader(let size, let count), .cursor(let size, let count):
            query.append(URLQueryItem(name: size, value: String(count)))
        case .bodyLink(_, let size, let count):
            if let size { query.append(URLQueryItem(name: size, value: String(count))) }
        case .limitOffset(let limit, let offset, let count):
            query += [URLQueryItem(name: limit, value: String(count)), URLQueryItem(name: offset, value: "0")]
        case .none: break
        }
        return try url(RESTRoutes(resource: resource).listPath, query: query)
    }

    /// A page's records as changes (the last change of an id wins) and their cursor marks.
    private func records(_ list: [JSONValue], resource: RESTResource, what: String) throws -> ([RemoteChange], [String]) {
        let mapping = RESTBodyMapping(resource: resource)
        let cursorField = resource.pull.cursorField
        var changes: [RemoteChange] = []
        var position: [String: Int] = [:]
        var marks: [String] = []
        for item in list {
            let local = try mapping.localRecord(item, what: what)
            guard let version = mapping.version(of: item) ?? item[cursorField]?.stringValue else {
                throw OfflineStoreError(.badResponse, "\(what): record \(local.id) has no version field", body: item.serialized())
            }
            if let mark = item[cursorField]?.stringValue { marks.append(mark) }
            let change = RemoteChange(id: local.id, record: mapping.isTombstone(item) ? nil : local.object, version: version)
            if let at = position[local.id] { changes[at] = change } else {
                position[local.id] = changes.count
                changes.append(change)
            }
        }
        return (changes, marks)
    }

    /// The last page: its cursor is the highest mark of the whole pull; a pull that read fewer
    /// records than the server announced is an error, not a success.
    private func lastPage(_ changes: [RemoteChange], state: RESTPullState, count: Int, newest: String?,
                          collection: String, what: String) throws -> PullPage {
        let read = state.read + count
        if let announced = state.announced, read < announced {
            throw RESTPullProblem.shortPull(collection, read: read, announced: announced, what: what)
        }
        // A feed the server cannot filter stores no cursor: every pull starts from the beginning.
        let highest = try resource(collection).pull.cursorParameter == nil ? nil : [state.highest, newest].compactMap { $0 }.max()
        return PullPage(changes: changes, cursor: highest, next: nil, total: state.announced)
    }

    /// Where the page after a full keyset page starts (pure): the second-highest distinct mark,
    /// so records sharing the highest one are read again instead of skipped; the highest when
    /// the whole page has one mark (the only way forward).
    static func resumeMark(_ marks: [String]) -> String? {
        guard let highest = marks.max() else { return nil }
        return marks.filter { $0 < highest }.max() ?? highest
    }

    /// The next page of a non-empty page, as the paging kind says; nil when this page is the last.
    private func nextPage(after reply: RESTReply, json: JSONValue, state: RESTPullState, count: Int, marks: [String],
                          resource: RESTResource, filters: [URLQueryItem], what: String) throws -> (url: URL, cursor: String?)? {
        let feed = resource.pull
        switch feed.paging {
        case .none: return nil
        case .cursor(let sizeParameter, let size):
            guard count >= size, let parameter = feed.cursorParameter, let resume = Self.resumeMark(marks) else { return nil }
            let query = filters + [URLQueryItem(name: parameter, value: resume), URLQueryItem(name: sizeParameter, value: String(size))]
            let next = try url(RESTRoutes(resource: resource).listPath, query: query)
            // The same cursor again asks the same page again.
            return (resume == state.askedCursor ? state.url : next, resume)
        case .linkHeader:
            guard let link = reply.nextLink else { return nil }
            return (try followed(link, from: state.url, reply: reply, what: what), nil)
        case .bodyLink(let field, _, _):
            guard let link = json.value(atPath: field)?.stringValue, !link.isEmpty else { return nil }
            return (try followed(link, from: state.url, reply: reply, what: what), nil)
        case .pageNumber(let name, _, let size):
            guard count >= size else { return nil }
            return state.url.settingQueryItems([URLQueryItem(name: name, value: String(state.page + 1))]).map { ($0, nil) }
        case .limitOffset(_, let offsetName, let size):
            let more = state.announced.map { state.offset + count < $0 } ?? (count >= size)
            guard more else { return nil }
            return state.url.settingQueryItems([URLQueryItem(name: offsetName, value: String(state.offset + count))]).map { ($0, nil) }
        }
    }

    /// The URL of a next link the server handed us, resolved against the page's URL (a
    /// relative link means the page's server): only one on the configured server's origin is
    /// followed, since every request carries the configuration's headers (credentials).
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` for a link that is not a URL or points
    ///   at another origin.
    private func followed(_ link: String, from page: URL, reply: RESTReply, what: String) throws -> URL {
        // Foundation would percent-encode a link with a space or a non-ASCII character, its
        // `%XX` escapes included, and ask another URL than the server wrote.
        guard Self.isURIReference(link), let next = URL(string: link, relativeTo: page)?.absoluteURL else {
            throw OfflineStoreError(.badResponse, "\(what): the next link \"\(link)\" is not a URL", status: reply.status)
        }
        guard next.hasSameOrigin(as: configuration.baseURL) else {
            throw OfflineStoreError(.badResponse, "\(what): the next link \"\(link)\" points at another server than "
                + "\(configuration.baseURL.absoluteString), which the pull's credentials are for", status: reply.status)
        }
        return next
    }

    /// Whether `text` holds only what a URI reference may (RFC 3986): printable ASCII except
    /// `"`, `<`, `>`, `\`, `^`, the backtick, `{`, `|` and `}`, each `%` starting a hex escape.
    static func isURIReference(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func isHex(_ byte: UInt8) -> Bool { Character(Unicode.Scalar(byte)).isHexDigit }
        for (index, byte) in bytes.enumerated() {
            guard (0x21...0x7E).contains(byte), !notInURIs.contains(byte) else { return false }
            if byte == UInt8(ascii: "%"), !(index + 2 < bytes.count && isHex(bytes[index + 1]) && isHex(bytes[index + 2])) {
                return false
            }
        }
        return true
    }

    private static let notInURIs = Set(#""<>\^`{|}"#.utf8)

    /// The page size a paging kind asks for, if any.
    static func size(of paging: RESTResource.Paging) -> Int? {
        switch paging {
        case .cursor(_, let size), .pageNumber(_, _, let size), .linkHeader(_, let size), .bodyLink(_, _, let size),
             .limitOffset(_, _, let size): size
        case .none: nil
        }
    }
}
