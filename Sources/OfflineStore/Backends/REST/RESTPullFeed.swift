extension RESTResource {
    /// How a resource's changes are pulled: an `updated_since`-style cursor over the
    /// collection route, tombstones by a `deleted_at`-style field (or a sweep after full
    /// pulls), an envelope's list and count, and paging.
    ///
    /// The server must list changes in ascending cursor order (Rails: `order(:updated_at, :id)`).
    public struct PullFeed: Sendable {
        /// The query parameter that carries the cursor, e.g. `updated_since`; nil: the server
        /// cannot filter by it, so every pull reads the whole list (pair it with
        /// ``Deletions/sweep`` to see deletions).
        public var cursorParameter: String?
        /// The remote field whose highest value on a page becomes the cursor, e.g. `updated_at`.
        public var cursorField: String
        /// The remote field that is non-null on soft-deleted records; nil: no tombstones in the feed.
        public var tombstoneField: String?
        /// Where the records are in a list answer: a key (`{"results": […]}`), or a dotted path
        /// (`data.items`); nil: the answer is a bare array.
        public var listKey: String?
        /// Where a list answer says how many records the whole list holds (DRF's `count`;
        /// a dotted path such as `meta.total`); nil: no count. A pull that ends having read
        /// fewer records than the first page announced fails instead of looking complete.
        public var countField: String?
        /// How the store learns that a record was deleted on the server.
        public var deletions: Deletions
        /// How pages are fetched.
        public var paging: Paging
        /// Whether the resource is pulled at all.
        public var isEnabled: Bool

        /// Rails defaults: `updated_since` over `updated_at`, `deleted_at` tombstones, cursor
        /// pages of 100.
        public init(cursorParameter: String? = "updated_since", cursorField: String = "updated_at",
                    tombstoneField: String? = "deleted_at", listKey: String? = nil, countField: String? = nil,
                    deletions: Deletions = .tombstones, paging: Paging = .cursor(), isEnabled: Bool = true) {
            self.cursorParameter = cursorParameter
            self.cursorField = cursorField
            self.tombstoneField = tombstoneField
            self.listKey = listKey
            self.countField = countField
            self.deletions = deletions
            self.paging = paging
            self.isEnabled = isEnabled
        }
    }

    /// How the store learns of records deleted on the server.
    public enum Deletions: String, Sendable, Hashable {
        /// The feed lists deleted records with their ``PullFeed/tombstoneField`` set (soft
        /// deletes); an incremental pull sees them.
        case tombstones
        /// After a pull from the beginning that read the whole list, synced objects the server
        /// no longer lists, and that have nothing pending, are removed locally (for servers that
        /// delete rows). Only full pulls see deletions this way: `refresh(full: true)`, or every
        /// pull when ``PullFeed/cursorParameter`` is nil. It keeps every pulled id in memory
        /// during the pull and reads the ids of the collection's synced objects once after it.
        case sweep
    }

    /// How the pages of a pull are fetched.
    ///
    /// Prefer ``cursor(sizeParameter:size:)``: each page starts where the previous one ended,
    /// so records changed or deleted during a pull cannot shift later pages. Page numbers and
    /// offsets (and links that carry them) count rows of a list that changes while it is
    /// read: a record changed on an already-read page moves to the end, every later row moves
    /// up one place, and the record at the next page's border is skipped until a full refresh.
    ///
    /// Every kind stops at an empty page; a page past the end that answers 404 (DRF's
    /// "Invalid page") ends the pull too. A page that holds exactly the records of the page
    /// before, or a next page that would be the same request again, stops the pull with a
    /// `configuration` error naming the setting the server does not follow.
    public enum Paging: Sendable, Hashable {
        /// Keyset pages: `?per_page=S`, then `?<cursorParameter>=<mark>&per_page=S` where the
        /// mark is the second-highest cursor value on the previous full page, so records that
        /// share the highest value are read again rather than skipped at the border. A page
        /// shorter than `size` is the last. Only a run of more than `size` records with one
        /// identical cursor value can lose its tail; keep `size` above the largest batch the
        /// server stamps with one timestamp.
        case cursor(sizeParameter: String = "per_page", size: Int = 100)
        /// `?page=N&per_page=S`; a page shorter than `size` is the last. Offset paging: see above.
        case pageNumber(page: String = "page", sizeParameter: String = "per_page", size: Int = 100)
        /// The first request asks `?per_page=S`; then `Link: <…>; rel="next"` is followed
        /// verbatim. As safe as the server's links: keyset links are, offset links are not.
        case linkHeader(sizeParameter: String = "per_page", size: Int = 100)
        /// The next page's URL is in the answer's body (DRF's `{"count", "next", "previous",
        /// "results"}`: `nextField` "next"; a dotted path such as `links.next` also works);
        /// null or absent ends the pull. `sizeParameter` (nil: none sent) asks `size` records
        /// per page. As safe as the server's links.
        case bodyLink(nextField: String = "next", sizeParameter: String? = nil, size: Int = 100)
        /// `?limit=S&offset=O`, the offset advancing by the records read; the pull ends at an
        /// empty page, at the envelope's count (``PullFeed/countField``), or, without a count,
        /// at a page shorter than `size`. Offset paging: see above.
        case limitOffset(limitParameter: String = "limit", offsetParameter: String = "offset", size: Int = 100)
        /// One request returns everything.
        case none
    }
}
