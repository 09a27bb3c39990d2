import OfflineStore

extension InMemoryBackend {
    /// Returns one page of changes with `since < version`, oldest first, as Kinto lists them:
    /// tombstones included; with a scope, the live records matching it and no tombstone (Kinto's
    /// filters never list one, it carries no field to match: the departure pull finds
    /// deletions); with ``PullRequest/Hints/fields``, every change with only those fields of
    /// each record besides its id (`_fields`). The hint ``PullRequest/Hints/needsDeletions`` is
    /// not used. Nothing is delivered before the page is returned.
    ///
    /// The first page takes the collection timestamp as the pull's upper bound; later pages
    /// (through ``PullPage/next``) stay under it, so a record changed during the pull is returned
    /// by the next pull instead. An intermediate page's cursor is its last version; the last
    /// page's cursor is the bound (the collection timestamp, "0" on a fresh server).
    ///
    /// - Throws: ``OfflineStoreError`` `invalidID` for a collection name Kinto refuses;
    ///   `server` with status 400 for a cursor that is not a number, 404 for a collection not
    ///   prepared when ``Configuration/requiresPreparedCollections``; `invalidOperation` for a
    ///   continuation of another backend or collection; the error of an injected fault.
    public func pull(_ request: PullRequest, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        let fault = state.withLock { s in
            s.log.append(.pull(collection: request.collection, since: request.cursor, continuing: request.continuation))
            return s.faults.takeCallFault(for: .pull)
        }
        _ = try await play(fault, on: .pull)
        return try page(collection: request.collection, since: request.cursor, continuing: request.continuation,
                        listing: FeedListing(request))
    }

    /// The page a pull gets now (no fault, not logged): what ``pull(_:delivering:)`` answers
    /// once its fault, if any, was played; the simulator's server answers with it. A listing that leaves changes out pages
    /// over what it lists, as Kinto's filtered pages do.
    func page(collection: String, since cursor: String?, continuing: PullContinuation?,
              listing: FeedListing = .everything) throws -> PullPage {
        try validate(id: collection)
        var token: PullToken?
        if let continuing {
            guard let decoded = PullToken(continuing), decoded.collection == collection else {
                throw OfflineStoreError(.invalidOperation, "the continuation does not belong to a pull of \(collection)")
            }
            token = decoded
        }
        let since: Int64
        if let token {
            since = token.since
        } else {
            // A pull starts a look-back below its cursor, as KintoBackend asks (nothing below everything).
            let parsed = try Self.parse(cursor: cursor), window = configuration.lookBack.components
            let lookBack = window.seconds * 1000 + window.attoseconds / 1_000_000_000_000_000
            let (back, overflow) = parsed.subtractingReportingOverflow(lookBack)
            since = parsed == Int64.min ? parsed : (overflow ? Int64.min + 1 : back)
        }
        let requiresPrepared = configuration.requiresPreparedCollections
        let pageSize = configuration.pageSize
        let announcesTotal = configuration.announcesTotal
        return try state.withLock { s in
            guard !requiresPrepared || s.collections[collection] != nil else {
                throw OfflineStoreError(.server, "the collection \(collection) does not exist", status: 404,
                                        body: KintoConventions.missingCollectionBody(collection))
            }
            let stored = s.collection(collection)
            let position = token ?? PullToken(collection: collection, since: since, after: since, bound: stored.timestamp)
            let remaining = stored.changes(after: position.after, upTo: position.bound)
                .filter { listing.show(id: $0.id, record: $0.record) != nil }
            let page = remaining.prefix(pageSize)
            let changes = page.compactMap { listing.show(id: $0.id, record: $0.record) }
            let total = announcesTotal ? stored.changes(after: position.since, upTo: position.bound).count : nil
            guard remaining.count > pageSize, let last = page.last?.record.lastModified else {
                return PullPage(changes: changes, cursor: String(position.bound), next: nil, total: total)
            }
            var next = position
            next.after = last
            return PullPage(changes: changes, cursor: String(last), next: next.continuation, total: total)
        }
    }

    /// Reads a cursor as Kinto reads `_since` (quotes allowed); nil means everything.
    private static func parse(cursor: String?) throws -> Int64 {
        guard let cursor else { return Int64.min }
        let trimmed = cursor.hasPrefix("\"") && cursor.hasSuffix("\"") && cursor.count >= 2
            ? String(cursor.dropFirst().dropLast()) : cursor
        guard let value = Int64(trimmed) else {
            throw OfflineStoreError(.server, "the cursor \"\(cursor.prefix(40))\" is not a number", status: 400,
                                    body: KintoConventions.invalidParameters("_since in querystring: \"\(cursor)\" is not a number"))
        }
        return value
    }
}
