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
            let url = try nextURL(state.next, request: request, mapping: mapping, changedSince: changedSince, what: what)
            return try await page(url, ahead: continuation.ahead as? ODataPagesAhead, state: state, request: request,
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

    /// The set's largest key within the pull's scope (`$orderby=Key desc&$top=1`), or nil when
    /// the service does not say: any failure only means the pull reads one range of keys (its
    /// own requests report the service's errors).
    func largestKey(_ request: PullRequest, mapping: ODataRecordMapping, what: String) async -> String? {
        guard let url = try? listURL(request, mapping: mapping, filter: nil, orderBy: "\(mapping.key.property) desc", top: 1),
              let reply = try? await send("GET", url, what: what), reply.isSuccess,
              let page = try? ODataPage.read(reply.body),
              let value = page.entities.first?.properties[mapping.key.property] else { return nil }
        return try? mapping.key.id(of: value)
    }

    /// The URL of the page a continuation's state leads to (its ``ODataPullState/next``, or a
    /// range waiting its turn).
    func nextURL(_ next: ODataPullState.Next, request: PullRequest, mapping: ODataRecordMapping, changedSince: ODataChangedSince?,
                 what: String) throws -> URL {
        switch next {
        case .link(let link):
            return try followed(link, what: what)
        case .after(let last):
            return try keyedURL(request, mapping: mapping, after: last)
        case .range(let last, let upTo):
            return try keyedURL(request, mapping: mapping, after: last, upTo: upTo)
        case .afterBoth(let last, let pivot):
            return try keyedURL(request, mapping: mapping, after: last, alsoAfter: pivot)
        case .since(let value, let last):
            guard let changedSince else {
                throw OfflineStoreError(.invalidOperation, "\(what): the pull continuation is ordered by a changed-since "
                    + "property the set no longer has")
            }
            return try sinceURL(request, mapping: mapping, changedSince: changedSince, after: (value, last))
        }
    }

    /// GETs a later page of a full pull or delta, or takes the answer already asked for; the
    /// other requests already made are carried on.
    func page(_ url: URL, ahead: ODataPagesAhead?, state: ODataPullState, request: PullRequest, mapping: ODataRecordMapping,
              what: String) async throws -> PullPage {
        let taken = ahead?.taking(url)
        let reply = if let asked = taken?.page { try await asked.answer() } else { try await laterPage(url, what: what) }
        return try await page(reply, state: state, delta: state.delta, request: request, mapping: mapping, what: what,
                              carrying: taken?.rest)
    }

    /// GETs a later page.
    func laterPage(_ url: URL, what: String) async throws -> ODataReply {
        try await send("GET", url, headers: [("Prefer", "odata.maxpagesize=\(Self.pageSizeHint)")], what: what)
    }

    /// The continuation to a state's next page, with that page, and the next page of each
    /// range waiting its turn, already asked for (taken from `carried` where it was asked before).
    func continuation(to state: ODataPullState, request: PullRequest, mapping: ODataRecordMapping,
                      carrying carried: ODataPagesAhead?, what: String) -> PullContinuation {
        let changedSince = try? self.changedSince(of: mapping)
        var pages: [ODataPageAhead] = []
        for next in [state.next] + state.waiting {
            // A URL that cannot be made is left to the pull that gets to it: it throws there.
            guard let url = try? nextURL(next, request: request, mapping: mapping, changedSince: changedSince, what: what) else {
                continue
            }
            pages.append(carried?.page(for: url) ?? ODataPageAhead(url: url, answer: .startedHere { [self] in try await laterPage(url, what: what) }))
        }
        return PullContinuation(token: state.continuation.token, ahead: ODataPagesAhead(pages))
    }

    /// Reads one answer as a page and says how the pull goes on: the page's range goes on
    /// after its last key (or link), and the range waiting longest is read next. When the first
    /// page of a pull paged by key has a next link, the set's largest key is asked
    /// (``largestKey(_:mapping:what:)``), and the pull splits in two key ranges read at once
    /// where the key type gives a midpoint (``ODataPullState/split(at:)``).
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` for a page of a pull by key or by a
    ///   changed-since property that lists no entity yet has a next link: the pull asks for the
    ///   entities after the last one read, so it cannot go on, and a full pull that ended there
    ///   would have the engine sweep what it never listed (an incremental one would never move
    ///   its cursor past that page).
    func page(_ reply: ODataReply, state: ODataPullState, delta: Bool, request: PullRequest,
              mapping: ODataRecordMapping, what: String, first: Bool = false,
              carrying carried: ODataPagesAhead? = nil) async throws -> PullPage {
        guard reply.isSuccess else { throw reply.error(what) }
        let page: ODataPage
        do { page = try ODataPage.read(reply.body) } catch let error as OfflineStoreError {
            if (try? JSONValue(parsing: reply.body)) == nil { throw OfflineStoreError(.badResponse, "\(what): \(reply.notJSON)") }
            throw OfflineStoreError(.badResponse, "\(what): \(error.message)")
        }
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
        // How this page's range goes on: nil after its last page.
        var following: ODataPullState.Next?
        if let nextLink = page.nextLink {
            if tracking {
                following = .link(nextLink)
            } else if let last = page.entities.last {
                if state.incremental, let changedSince {
                    following = try Self.next(after: last, changedSince: changedSince, mapping: mapping, what: what)
                } else {
                    following = state.following(after: try mapping.object(last.properties, what: what).id)
                }
            } else {
                throw OfflineStoreError(.badResponse, "\(what): the service answered a page that lists no entity with a next "
                    + "link (\(nextLink.prefix(200))); the pull asks for the entities after the last one read, and this page "
                    + "has none, so the refresh stops here and nothing is swept")
            }
        }
        guard var turned = state.turned(following: following) else {
            // The last page: a delta's own link, or the first page's, or the latest changed-since value.
            let cursor = delta ? (page.deltaLink ?? request.cursor)
                : (state.deltaLink ?? state.changedSince.flatMap { $0.value == nil ? nil : $0.text })
            return Self.page(try Self.changes(of: page, mapping: mapping, what: what), cursor: cursor, next: nil, state: state)
        }
        if first, !tracking, !state.incremental, mapping.key.type != .string, case .after(let last) = turned.next,
           let largest = await largestKey(request, mapping: mapping, what: what),
           let pivot = ODataKeyMidpoint.between(last, largest, type: mapping.key.type) {
            turned = turned.split(at: pivot)
        }
        // The next page is asked before this one's entities are mapped, so that the service
        // works on it meanwhile; a page that fails to map drops the continuation, and with it
        // the request.
        let next = continuation(to: turned, request: request, mapping: mapping, carrying: carried, what: what)
        return Self.page(try Self.changes(of: page, mapping: mapping, what: what), cursor: nil, next: next, state: turned)
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

    /// `Set?$filter=…&$orderby=Key[&$select=…]`, the keys after `after` (and `alsoAfter`) and up to `upTo` when given; without
    /// `$orderby` when not `ordered` (a read the service pages in its own order).
    func keyedURL(_ request: PullRequest, mapping: ODataRecordMapping, after: String?, alsoAfter: String? = nil,
                  upTo: String? = nil, ordered: Bool = true) throws -> URL {
        func literal(_ key: String) throws -> String {
            guard let literal = ODataFilter.literal(.string(key), type: mapping.key.type.rawValue) else {
                throw OfflineStoreError(.badResponse, "pulling \(mapping.set.name): \(key) is not a key of \(mapping.key.type.rawValue)")
            }
            return literal
        }
        var bounds: [String] = []
        if let after { bounds.append("\(mapping.key.property) gt \(try literal(after))") }
        if let alsoAfter { bounds.append("\(mapping.key.property) gt \(try literal(alsoAfter))") }
        if let upTo { bounds.append("\(mapping.key.property) le \(try literal(upTo))") }
        let filter = bounds.isEmpty ? nil : bounds.joined(separator: " and ")
        return try listURL(request, mapping: mapping, filter: filter, orderBy: ordered ? mapping.key.property : nil)
    }

    /// `Set?$filter=(scope) and (filter)&$orderby=…[&$select=…]`; the changed-since property is
    /// selected with the key, so that a pull can note its latest value.
    func listURL(_ request: PullRequest, mapping: ODataRecordMapping, filter: String?, orderBy: String?, top: Int? = nil) throws -> URL {
        var filters: [String] = []
        if let scope = ODataFilter.expression(request.scope, mapping: mapping) { filters.append("(\(scope))") }
        if let filter { filters.append(filters.isEmpty ? filter : "(\(filter))") }
        var query: [String] = []
        if !filters.isEmpty { query.append("$filter=" + ODataFilter.encoded(filters.joined(separator: " and "))) }
        if let orderBy { query.append("$orderby=" + ODataFilter.encoded(orderBy)) }
        if let top { query.append("$top=\(top)") }
        if let fields = request.hints.fields {
            let always = [mapping.key.property] + (configuration.entitySets[mapping.set.name]?.changedSince.map { [$0] } ?? [])
            let names = always + fields.filter { $0 != "id" && mapping.set.property($0) != nil && !always.contains($0) }
            query.append("$select=" + ODataFilter.encoded(names.joined(separator: ",")))
        }
        let set = mapping.set.name.addingPercentEncoding(withAllowedCharacters: ODataKey.literalCharacters) ?? mapping.set.name
        return try url(set + "?" + query.joined(separator: "&"))
    }
}
