import Foundation

extension KintoBackend {
    /// Fetches one page of an ascending change feed, bounded by a snapshot.
    ///
    /// The first page (`continuing == nil`) reads
    /// `records?_since=S&_sort=last_modified&_limit=pageSize` with S = cursor −
    /// ``Configuration/lookBack`` (0 for a nil cursor: with `_since` Kinto includes
    /// tombstones), and its answer's `ETag` — the collection timestamp when Kinto answered —
    /// is the snapshot bound B. Later pages follow `Next-Page` verbatim. The pull's cursor is
    /// B: a record changed during the pull gets a timestamp above B and is read again by
    /// the next pull (it may already come on a later page of this one: re-reads change
    /// nothing); records committed late with an older timestamp are caught by the
    /// look-back. With ``Configuration/countsRecords`` a `HEAD` first learns B and the
    /// total, and the pages are bounded by `_before=B+1`.
    ///
    /// A pull of one page whose answer came at least twice the look-back after B closes the
    /// look-back window: its cursor is B + lookBack, so the next pull starts at B itself
    /// (`KintoCursor`). A first page with a cursor (and no `HEAD`) is asked with
    /// `If-None-Match: "<S>"`: when nothing in the collection is newer than S, Kinto answers 304
    /// without reading a list, an empty last page that keeps the cursor (Docs/Scaling.md).
    ///
    /// ``PullPage/cursor`` is the last `last_modified` of an intermediate page and B on the
    /// last page. The next page starts at that last `last_modified`, not after it, where the
    /// pull has a `_since` (``KintoPageBoundary``: a change sharing it is not skipped). The continuation token is JSON `{"next":"<Next-Page URL>","bound":B}`
    /// (plus `"total"` when known). A cursor that is not a Kinto timestamp means "everything".
    /// ``PullPage/total`` is the first answer's `Total-Records`: live records changed since S
    /// (Kinto does not count tombstones), so it is a progress hint, not an exact count.
    ///
    /// A missing collection (404) is an empty last page with a nil cursor (the stored one
    /// is kept); a missing bucket answers 403 on Kinto, hence `unauthorized`: call
    /// ``prepare(collection:)`` first.
    ///
    /// - Throws: ``OfflineStoreError``: `unauthorized`, `offline`, `timeout`, `server`
    ///   (also while backing off), `badResponse`, `invalidOperation` (a token this backend
    ///   did not make), `configuration` (invalid names).
    ///
    /// The request's hints and scope: ``PullRequest/Hints/needsDeletions`` false with a nil
    /// cursor lists live records only (no `_since`): on Kinto's memory backend a `_since` list
    /// costs three to four times as much per page, and a store that holds no server copy has
    /// nothing a tombstone could remove (records deleted during the pull get tombstones above
    /// the bound, which the next pull reads). A ``PullRequest/scope``'s terms go to Kinto as
    /// filter parameters (`region=north`, `in_region=…`, `not_region=…`, …), on the bounding
    /// `HEAD` and every page; Kinto filters tombstones out (they carry no fields), the departure
    /// pull brings them. ``PullRequest/Hints/fields`` asks `_fields=id,last_modified,…`: ids,
    /// versions and the named fields only, tombstones included, returned whole (one change per
    /// id, the latest).
    ///
    /// Records are read as the page arrives: each group of records read goes to `deliver` at
    /// once, so memory holds the record being read, not the page (`KintoPageReader`); the
    /// returned page has no changes. The cursor is the same as the page's, to be stored only
    /// after every record of the page was applied.
    public func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        var filters: [(String, String)] = []
        if let scope = request.scope {
            try scope.validate()
            filters += try scope.terms.map(Self.filter)
        }
        if let fields = request.hints.fields {
            for field in fields where !FieldSchema.isValidName(field) {
                throw OfflineStoreError(.invalidFieldPath, "field '\(field.prefix(64))' must be letters, digits and '_'")
            }
            filters.append(("_fields", (["id", "last_modified", "deleted"] + fields.sorted()).joined(separator: ",")))
            return try await pull(request, filters: filters)
        }
        return try await pull(collection: request.collection, since: request.cursor, continuing: request.continuation,
                              filters: filters, includingDeletions: request.hints.needsDeletions || request.scope != nil,
                              deliver: deliver)
    }

    /// ``pull(_:delivering:)`` with every change in the returned page, one per id (the latest).
    public func pull(_ request: PullRequest) async throws -> PullPage {
        var changes: [RemoteChange] = []
        var page = try await pull(request) { changes += $0 }
        page.changes = KintoPage.latest(changes + page.changes)
        return page
    }

    /// The pull with its changes collected into the page, one per id.
    private func pull(_ request: PullRequest, filters extra: [(String, String)]) async throws -> PullPage {
        var changes: [RemoteChange] = []
        var page = try await pull(collection: request.collection, since: request.cursor, continuing: request.continuation,
                                  filters: extra, includingDeletions: true) { changes += $0 }
        page.changes = KintoPage.latest(changes)
        return page
    }

    /// The pull, with extra query parameters on its first page (later pages follow Kinto's
    /// `Next-Page`, which keeps them), its records handed to `deliver` as they are read.
    private func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                      filters extra: [(String, String)], includingDeletions: Bool = true,
                      deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        try checkName(collection)
        try checkBackoff()
        let recordsURL = paths.url(paths.recordsPath(collection))
        let token: PullToken
        if let continuing {
            token = try PullToken(decoding: continuing.token)
            guard paths.isSameOrigin(token.next), token.next.path == recordsURL.path else {
                throw OfflineStoreError(.invalidOperation,
                                        "the pull continuation does not point at collection \"\(collection)\" of this server")
            }
        } else {
            guard let first = try await firstPage(collection: collection, since: cursor, extra: extra,
                                                  includingDeletions: includingDeletions) else {
                return PullPage(changes: [], cursor: nil, next: nil)
            }
            token = first
        }
        let what = "pulling collection \"\(collection)\""
        let condition = token.unchangedSince.map { [("If-None-Match", "\"\($0)\"")] } ?? []
        let (reply, body): (KintoReply, HTTPBodyStream?)
        if let ahead = continuing?.ahead as? KintoPageAhead, ahead.url == token.next, ahead.claim() {
            (reply, body) = try await ahead.answer()
        } else {
            (reply, body) = try await streamGET(token.next, headers: condition, what: what)
        }
        if reply.status == 404 {
            forgetPrepared(collection)
            return PullPage(changes: [], cursor: nil, next: nil)
        }
        // Nothing newer than the first page's `_since`: the cursor stays as it is.
        if reply.status == 304, token.unchangedSince != nil { return PullPage(changes: [], cursor: nil, next: nil) }
        guard reply.isSuccess else { throw reply.error(what) }
        let bound: Int64
        if let known = token.bound {
            bound = known
        } else {
            // The first answer's ETag is the snapshot bound (no HEAD was asked).
            guard let learned = reply.etag.flatMap({ Int64($0) }), learned < Int64.max, learned >= 0 else {
                throw reply.badResponse(what)
            }
            bound = learned
        }
        guard let body else { throw reply.badResponse(what) }
        // The next page is asked now, so that the server builds it while this one is read
        // (one page ahead at most: a continuation carries it, and dropping it cancels it).
        let ahead = aheadOf(reply, recordsURL: recordsURL, what: what)
        let (lowest, highest) = try await readPage(body, reply: reply, what: what, deliver: deliver)

        var next: PullContinuation?
        var pageCursor = String(bound)
        if continuing == nil {
            // One page only (no Next-Page, checked below): it may close the look-back window.
            let answeredAt = reply.header("Date").flatMap(HTTPDate.milliseconds)
            pageCursor = String(KintoCursor.afterPull(bound: bound, answeredAt: answeredAt,
                                                      lookBack: Self.milliseconds(configuration.lookBack)))
        }
        if let link = reply.header("Next-Page"), !link.isEmpty {
            guard let url = URL(string: link) else { throw reply.badResponse(what) }
            // The next page starts at this one's last timestamp, which a skipped change may share.
            let following = KintoPageBoundary.next(after: url, lowest: lowest)
            next = PullContinuation(token: PullToken(next: following, bound: bound, total: token.total).encoded(), ahead: ahead)
            pageCursor = highest.map(String.init) ?? ""
        }
        return PullPage(changes: [], cursor: pageCursor.isEmpty ? nil : pageCursor, next: next,
                        total: token.total)
    }

    /// Learns the bound and builds the first page's URL; nil when the collection is missing.
    private func firstPage(collection: String, since cursor: String?, extra: [(String, String)],
                           includingDeletions: Bool) async throws -> PullToken? {
        let path = paths.recordsPath(collection)
        var filter: [(String, String)] = extra
        let start = KintoCursor.since(cursor, lookBack: Self.milliseconds(configuration.lookBack))
        // `_since` (0 for everything) keeps tombstones; without it Kinto lists live records only.
        if let since = start ?? (includingDeletions ? 0 : nil) { filter.append(("_since", String(since))) }
        guard configuration.countsRecords else {
            // No HEAD: the first answer's ETag bounds the pull.
            let query = filter + [("_sort", "last_modified"), ("_limit", String(max(1, configuration.pageSize)))]
            var token = PullToken(next: paths.url(path, query: query), bound: nil, total: nil)
            token.unchangedSince = start
            return token
        }
        let what = "reading the timestamp of collection \"\(collection)\""
        let head = try await send("HEAD", paths.url(path, query: filter + [("_limit", "1")]), what: what)
        if head.status == 404 {
            forgetPrepared(collection)
            return nil
        }
        guard head.isSuccess else { throw head.error(what) }
        guard let bound = head.etag.flatMap({ Int64($0) }), bound < Int64.max else { throw head.badResponse(what) }
        let total = head.header("Total-Records").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let query = filter + [
            ("_before", String(bound + 1)), ("_sort", "last_modified"), ("_limit", String(max(1, configuration.pageSize))),
        ]
        return PullToken(next: paths.url(path, query: query), bound: bound, total: total)
    }

    /// Parsed records as changes (``KintoPage/changes(of:)``).
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` when a record has no `id` or integer `last_modified`.
    static func changes(_ items: [JSONValue], reply: KintoReply, what: String) throws -> [RemoteChange] {
        guard let changes = KintoPage.changes(of: items) else { throw reply.badResponse(what) }
        return changes
    }
}

/// The state of a pull between pages: the next URL, the snapshot bound and the announced total.
struct PullToken: Sendable, Hashable {
    /// The `Next-Page` URL (or the first page's URL).
    var next: URL
    /// The collection timestamp the pull is bounded by (inclusive); nil on a first page
    /// that learns it from its answer's `ETag`. A continuation always carries it.
    var bound: Int64?
    /// `Total-Records` of the first answer, if any.
    var total: Int?
    /// The first page's `_since`, sent as `If-None-Match` (a 304 means nothing newer); never
    /// in a continuation.
    var unchangedSince: Int64?

    init(next: URL, bound: Int64?, total: Int?) {
        self.next = next
        self.bound = bound
        self.total = total
    }

    /// Reads a token made by ``encoded()``.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidOperation`` for anything else.
    init(decoding text: String) throws {
        let invalid = OfflineStoreError(.invalidOperation, "the pull continuation was not made by KintoBackend")
        guard let json = try? JSONValue(parsing: text), let link = json["next"]?.stringValue,
              let url = URL(string: link), let bound = json["bound"]?.intValue else { throw invalid }
        self.next = url
        self.bound = bound
        self.total = json["total"]?.intValue.flatMap { Int(exactly: $0) }
    }

    /// The token as compact JSON.
    func encoded() -> String {
        var object: [String: JSONValue] = ["next": .string(next.absoluteString)]
        if let bound { object["bound"] = .int(bound) }
        if let total { object["total"] = .int(Int64(total)) }
        return JSONValue.object(object).serialized()
    }
}
