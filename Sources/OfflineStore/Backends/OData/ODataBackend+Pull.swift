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
    ///   does not is read ordered by key and paged by key (``ODataPullState``), and the engine
    ///   finds deletions by absence. It stores no cursor, so that every refresh is a full pull,
    ///   unless the set has a changed-since property (``ODataEntitySetSettings/changedSince``):
    ///   then the latest value of it read is the cursor (``ODataChangedSinceCursor``).
    /// - A pull from a delta link reads it: changed entities as records, removed ones
    ///   (`@removed`, 4.0's `$deletedEntity`) as tombstones, the new delta link as the cursor.
    ///   A delta link the service refuses (400, 404, 410, …: expired) starts a full pull within
    ///   the same pull.
    /// - A pull from a changed-since cursor reads what changed since it, less the margin, or,
    ///   on the refreshes ``ODataSweepSchedule`` names, the whole set by key, its pages flagged
    ///   ``PullPage/restartedFromTheBeginning`` so that the engine sweeps deletions after it
    ///   (``incrementalPage(_:cursor:changedSince:mapping:what:)``).
    ///
    /// The scope becomes `$filter` (``ODataFilter``; delta links drop it, and the engine keeps
    /// what matches), `hints.fields` becomes `$select` (the key always in it). A page is read
    /// at once: nothing is delivered before it is returned.
    ///
    /// - Throws: `configuration` (no such set; a changed-since property the set does not
    ///   declare), `badResponse` (not a page; a link to another server), `unauthorized`, `forbidden`, `server`, `offline`, `timeout`.
    public func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        let mapping = try await mapping(request.collection)
        let changedSince = try changedSince(of: mapping)
        let what = "pulling \(request.collection)"
        if let continuation = request.continuation {
            let state = try ODataPullState(continuation)
            let url = try nextURL(state, request: request, mapping: mapping, changedSince: changedSince, what: what)
            return try await page(url, ahead: continuation.ahead as? ODataPageAhead, state: state, request: request,
                                  mapping: mapping, what: what)
        }
        if let cursor = request.cursor {
            if ODataChangedSinceCursor.isChangedSince(cursor) {
                return try await incrementalPage(request, cursor: cursor, changedSince: changedSince, mapping: mapping, what: what)
            }
            let reply = try await send("GET", try followed(cursor, what: what), what: what)
            if ODataPullState.refusesDeltaLink(status: reply.status) {
                return try await firstPage(request, mapping: mapping, changedSince: changedSince, restarted: true, what: what)
            }
            return try await page(reply, state: ODataPullState(next: .link(cursor), deltaLink: nil, restarted: false, delta: true),
                                  delta: true, request: request, mapping: mapping, what: what)
        }
        return try await firstPage(request, mapping: mapping, changedSince: changedSince, restarted: false, what: what)
    }

    /// The first page of a full pull, asking for change tracking. With a changed-since
    /// property the pull also notes the latest value it reads, the cursor of a service that
    /// turns out not to track changes.
    ///
    /// A set that may track changes (no pull found it without) is asked in the service's own
    /// order: a service that tracks changes is paged by its own next links (whose tokens hold
    /// the key), and ordering by key would cost it a sort of the set at every page. Only when
    /// that answer brings no delta link (once per set and backend, and never after a
    /// changed-since cursor, which only such a set stores) is the set asked again ordered by
    /// key, to be paged by key.
    func firstPage(_ request: PullRequest, mapping: ODataRecordMapping, changedSince: ODataChangedSince?, restarted: Bool,
                   what: String) async throws -> PullPage {
        let prefer = [("Prefer", "odata.track-changes,odata.maxpagesize=\(Self.pageSizeHint)")]
        var url = try keyedURL(request, mapping: mapping, after: nil, ordered: false)
        var reply: ODataReply
        if service.withLock({ $0.tracksChanges[mapping.set.name] }) != false {
            reply = try await send("GET", url, headers: prefer, what: what)
            if reply.isSuccess, (try? ODataPage.read(reply.body))?.deltaLink == nil {
                service.withLock { $0.tracksChanges[mapping.set.name] = false }
                url = try keyedURL(request, mapping: mapping, after: nil)
                reply = try await send("GET", url, headers: prefer, what: what)
            }
        } else {
            url = try keyedURL(request, mapping: mapping, after: nil)
            reply = try await send("GET", url, headers: prefer, what: what)
        }
        var state = ODataPullState(next: .link(url.absoluteString), deltaLink: nil, restarted: restarted)
        if let changedSince, !service.withLock({ $0.changedSinceRefused.contains(mapping.set.name) }) {
            state.changedSince = ODataChangedSinceCursor(property: changedSince.property, value: nil, refreshes: 1)
        }
        return try await page(reply, state: state, delta: false, request: request, mapping: mapping, what: what, first: true)
    }

    /// The URL of the page a continuation's state leads to.
    func nextURL(_ state: ODataPullState, request: PullRequest, mapping: ODataRecordMapping, changedSince: ODataChangedSince?,
                 what: String) throws -> URL {
        switch state.next {
        case .link(let link):
            return try followed(link, what: what)
        case .after(let last):
            return try keyedURL(request, mapping: mapping, after: last)
        case .since(let value, let last):
            guard let changedSince else {
                throw OfflineStoreError(.invalidOperation, "\(what): the pull continuation is ordered by a changed-since "
                    + "property the set no longer has")
            }
            return try sinceURL(request, mapping: mapping, changedSince: changedSince, after: (value, last))
        }
    }

    /// GETs a later page of a full pull or delta, or takes the answer already asked for.
    func page(_ url: URL, ahead: ODataPageAhead?, state: ODataPullState, request: PullRequest, mapping: ODataRecordMapping,
              what: String) async throws -> PullPage {
        let reply = if let ahead, ahead.url == url { try await ahead.answer() } else { try await laterPage(url, what: what) }
        return try await page(reply, state: state, delta: state.delta, request: request, mapping: mapping, what: what)
    }

    /// GETs a later page.
    func laterPage(_ url: URL, what: String) async throws -> ODataReply {
        try await send("GET", url, headers: [("Prefer", "odata.maxpagesize=\(Self.pageSizeHint)")], what: what)
    }

    /// The continuation to a state's next page, with that page already asked for.
    func continuation(to state: ODataPullState, request: PullRequest, mapping: ODataRecordMapping,
                      what: String) -> PullContinuation {
        let changedSince = try? self.changedSince(of: mapping)
        guard let url = try? nextURL(state, request: request, mapping: mapping, changedSince: changedSince, what: what) else {
            return state.continuation
        }
        let ahead = ODataPageAhead(url: url, answer: Task { [self] in try await laterPage(url, what: what) })
        return PullContinuation(token: state.continuation.token, ahead: ahead)
    }

    /// Reads one answer as a page and says how the pull goes on.
    func page(_ reply: ODataReply, state: ODataPullState, delta: Bool, request: PullRequest,
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
            // A service that tracks changes reports deletions: the changed-since property is not used.
            if tracks { state.changedSince = nil }
        }
        let changedSince = state.changedSince == nil ? nil : try self.changedSince(of: mapping)
        if let changedSince {
            let seen = state.changedSince?.value
            state.changedSince?.value = page.entities.reduce(seen) { changedSince.latest($0, changedSince.value(in: $1.properties)) }
        }
        let tracking = delta || state.deltaLink != nil
        guard let nextLink = page.nextLink else {
            // The last page: a delta's own link, or the first page's, or the latest changed-since value.
            let cursor = delta ? (page.deltaLink ?? request.cursor)
                : (state.deltaLink ?? state.changedSince.flatMap { $0.value == nil ? nil : $0.text })
            return Self.page(changes, cursor: cursor, next: nil, state: state)
        }
        if tracking {
            state.next = .link(nextLink)
        } else if state.incremental, let changedSince {
            guard let last = page.entities.last else { return Self.page(changes, cursor: nil, next: nil, state: state) }
            state.next = try Self.next(after: last, changedSince: changedSince, mapping: mapping, what: what)
        } else {
            guard let last = changes.last?.id else { return Self.page(changes, cursor: nil, next: nil, state: state) }
            state.next = .after(last)
        }
        return Self.page(changes, cursor: nil, next: continuation(to: state, request: request, mapping: mapping, what: what),
                         state: state)
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
        var filter: String?
        if let after {
            guard let literal = ODataFilter.literal(.string(after), type: mapping.key.type.rawValue) else {
                throw OfflineStoreError(.badResponse, "pulling \(mapping.set.name): \(after) is not a key of \(mapping.key.type.rawValue)")
            }
            filter = "\(mapping.key.property) gt \(literal)"
        }
        return try listURL(request, mapping: mapping, filter: filter, orderBy: ordered ? mapping.key.property : nil)
    }

    /// `Set?$filter=(scope) and (filter)&$orderby=…[&$select=…]`; the changed-since property is
    /// selected with the key, so that a pull can note its latest value.
    func listURL(_ request: PullRequest, mapping: ODataRecordMapping, filter: String?, orderBy: String?) throws -> URL {
        var filters: [String] = []
        if let scope = ODataFilter.expression(request.scope, mapping: mapping) { filters.append("(\(scope))") }
        if let filter { filters.append(filters.isEmpty ? filter : "(\(filter))") }
        var query: [String] = []
        if !filters.isEmpty { query.append("$filter=" + ODataFilter.encoded(filters.joined(separator: " and "))) }
        if let orderBy { query.append("$orderby=" + ODataFilter.encoded(orderBy)) }
        if let fields = request.hints.fields {
            let always = [mapping.key.property] + (configuration.entitySets[mapping.set.name]?.changedSince.map { [$0] } ?? [])
            let names = always + fields.filter { $0 != "id" && mapping.set.property($0) != nil && !always.contains($0) }
            query.append("$select=" + ODataFilter.encoded(names.joined(separator: ",")))
        }
        let set = mapping.set.name.addingPercentEncoding(withAllowedCharacters: ODataKey.literalCharacters) ?? mapping.set.name
        return try url(set + "?" + query.joined(separator: "&"))
    }
}
