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

        /// Rails defaults: `updated_since` over `updated_at`, `deleted_at` tombstones, pages of 100.
        public init(cursorParameter: String = "updated_since", cursorField: String = "updated_at",
                    tombstoneField: String? = "deleted_at", listKey: String? = nil,
                    paging: Paging = .pageNumber(), isEnabled: Bool = true) {
            self.cursorParameter = cursorParameter
            self.cursorField = cursorField
            self.tombstoneField = tombstoneField
            self.listKey = listKey
            self.paging = paging
            self.isEnabled = isEnabled
        }
    }

    /// How the pages of a pull are fetched.
    public enum Paging: Sendable, Hashable {
        /// `?page=N&per_page=S`; a page shorter than `size` is the last.
        case pageNumber(page: String = "page", sizeParameter: String = "per_page", size: Int = 100)
        /// The first request asks `?per_page=S`; then `Link: <…>; rel="next"` is followed verbatim.
        case linkHeader(sizeParameter: String = "per_page", size: Int = 100)
        /// One request returns everything.
        case none
    }
}
