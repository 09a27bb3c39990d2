extension RESTResource {
    /// How a resource's changes are pulled: an `updated_since`-style cursor over the
    /// collection route, tombstones by a `deleted_at`-style field, and paging.
    ///
    /// The server must list changes in ascending cursor order (Rails: `order(:updated_at, :id)`).
    public struct PullFeed: Sendable {
        /// The query parameter that carries the cursor, e.g. `updated_since`.
        public var cursorParameter: String
        /// The remote field whose highest value on a page becomes the cursor, e.g. `updated_at`.
        public var cursorField: String
        /// The remote field that is non-null on soft-deleted records; nil: no tombstones in the feed.
        public var tombstoneField: String?
        /// The key of the array in a wrapped list answer (`{"products": […]}`); nil: a bare array.
        public var listKey: String?
        /// How pages are fetched.
        public var paging: Paging
        /// Whether the resource is pulled at all.
        public var isEnabled: Bool

        /// Rails defaults: `updated_since` over `updated_at`, `deleted_at` tombstones, cursor
        /// pages of 100.
        public init(cursorParameter: String = "updated_since", cursorField: String = "updated_at",
                    tombstoneField: String? = "deleted_at", listKey: String? = nil,
                    paging: Paging = .cursor(), isEnabled: Bool = true) {
            self.cursorParameter = cursorParameter
            self.cursorField = cursorField
            self.tombstoneField = tombstoneField
            self.listKey = listKey
            self.paging = paging
            self.isEnabled = isEnabled
        }
    }

    /// How the pages of a pull are fetched.
    ///
    /// Prefer ``cursor(sizeParameter:size:)``: each page starts where the previous one ended,
    /// so records changed or deleted during a pull cannot shift later pages. Page numbers (and
    /// `Link` headers that carry an offset) count rows of a list that changes while it is
    /// read: a record changed on an already-read page moves to the end, every later row moves
    /// up one place, and the record at the next page's border is skipped until a full refresh.
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
        /// One request returns everything.
        case none
    }
}
