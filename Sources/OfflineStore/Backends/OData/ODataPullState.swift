import Foundation

/// Where a pull of an entity set goes on, carried in its ``PullContinuation`` (pure value,
/// its token JSON).
///
/// A service that tracks changes pages by its own `@odata.nextLink` (its tokens are key-based:
/// a deletion between pages skips nothing) and the pull stores the first page's delta link
/// once the last page is applied: changes made while the pages are read are in that delta.
/// A service that does not is paged by key: each next page asks for the keys after the last
/// one read (`$filter=Key gt last`), since a row-offset `$skiptoken` skips a live entity when
/// an earlier one is deleted between pages, and a full pull that missed one would sweep it.
/// An incremental pull by a changed-since property is paged by that property and the key
/// (``ODataChangedSince``) for the same reason.
///
/// A pull paged by key whose keys have arithmetic (Guid, Int32, Int64), after a first page
/// with a next link, reads the rest in two key ranges at the same time: the keys after that
/// page's last key `a` up to a midpoint `m` (``ODataKeyMidpoint``) between `a` and the set's
/// largest key, and the keys after both `a` and `m`, each paged by key, the pages taken in
/// turn. The two split the keys after `a` in any order the service keeps: where it orders `m`
/// below `a` (SQL Server orders Guids by their last group first) the first range is empty,
/// and no key of the first page is read again. While both ranges last, each range's next
/// request is on the wire while the engine applies a page of the other, so the service has a
/// request to work on: a single range leaves it idle while the store reads a page and
/// corelibs' URLSession starts the next request.
struct ODataPullState: Codable, Sendable, Equatable {
    /// How the next page is asked.
    enum Next: Codable, Sendable, Equatable {
        /// GET the service's link.
        case link(String)
        /// Ask for the keys after this one (the store's id of the last entity read).
        case after(String)
        /// Ask for the keys after `after` up to and including `upTo`: the lower of two key
        /// ranges read at once.
        case range(after: String, upTo: String)
        /// Ask for the keys after both `after` and `pivot`: the upper of two key ranges read
        /// at once, before its first page.
        case afterBoth(after: String, pivot: String)
        /// Ask for the entities after this one in the order changed-since property, key
        /// (``ODataChangedSince``): its value of the property and the store's id.
        case since(JSONValue, String)
    }

    /// The next page.
    var next: Next
    /// The delta link to store as the cursor with the last page (a service that tracks changes).
    var deltaLink: String?
    /// Whether this pull started over from the beginning because the stored delta link was refused.
    var restarted = false
    /// Whether the pages are a delta's (read from a stored delta link), not a full read's.
    var delta = false
    /// With a changed-since property on a service without change tracking: the cursor to store
    /// with the last page, its value the latest read so far.
    var changedSince: ODataChangedSinceCursor?
    /// Whether the pages are an incremental pull's, ordered by the changed-since property then the key.
    var incremental = false
    /// The other key ranges of a pull that reads two at once, each as its next page is asked
    /// (already on the wire): after the page ``next`` leads to, the first of them is read and
    /// the range just read goes to the end.
    var waiting: [Next] = []

    /// The continuation carrying this state.
    var continuation: PullContinuation {
        PullContinuation(token: String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self))
    }

    private enum CodingKeys: String, CodingKey {
        case next, deltaLink, restarted, delta, changedSince, incremental, waiting
    }

    /// Decodes a token; one written before pulls read two key ranges at once has no `waiting`,
    /// and is read as one range.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        next = try container.decode(Next.self, forKey: .next)
        deltaLink = try container.decodeIfPresent(String.self, forKey: .deltaLink)
        restarted = try container.decode(Bool.self, forKey: .restarted)
        delta = try container.decode(Bool.self, forKey: .delta)
        changedSince = try container.decodeIfPresent(ODataChangedSinceCursor.self, forKey: .changedSince)
        incremental = try container.decode(Bool.self, forKey: .incremental)
        waiting = try container.decodeIfPresent([Next].self, forKey: .waiting) ?? []
    }

    /// The state of a continuation this backend handed out.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidOperation`` for a token of another backend.
    init(_ continuation: PullContinuation) throws {
        guard let state = try? JSONDecoder().decode(ODataPullState.self, from: Data(continuation.token.utf8)) else {
            throw OfflineStoreError(.invalidOperation, "the pull continuation \(continuation.token.prefix(80)) is not an OData backend's")
        }
        self = state
    }

    init(next: Next, deltaLink: String?, restarted: Bool, delta: Bool = false) {
        self.next = next
        self.deltaLink = deltaLink
        self.restarted = restarted
        self.delta = delta
    }

    /// How the range ``next`` reads goes on after a page whose last key is `last`: the keys
    /// after it, within the range's bound.
    func following(after last: String) -> Next {
        if case .range(_, let upTo) = next { return .range(after: last, upTo: upTo) }
        return .after(last)
    }

    /// The state after the page ``next`` led to, `following` how its range goes on (nil: that
    /// page was the range's last): the range waiting longest is read next, the one just read
    /// waits behind the others. Nil when no range is left, so that page was the pull's last.
    func turned(following: Next?) -> ODataPullState? {
        var state = self
        if let following { state.waiting.append(following) }
        guard !state.waiting.isEmpty else { return nil }
        state.next = state.waiting.removeFirst()
        return state
    }

    /// Splits a pull paged by key in two ranges read at once: the keys after ``next``'s up to
    /// `pivot`, then the keys after both. Only a single range of keys without a bound
    /// (`.after`) splits; any other state is returned as it is.
    func split(at pivot: String) -> ODataPullState {
        guard case .after(let last) = next, waiting.isEmpty else { return self }
        var state = self
        state.next = .range(after: last, upTo: pivot)
        state.waiting = [.afterBoth(after: last, pivot: pivot)]
        return state
    }

    /// Whether a stored delta link answered `status` is refused for good (expired, unknown,
    /// not supported), so that the pull starts over from the beginning; 401/403, 408/429 and
    /// 5xx are not (they fail the refresh as on any request).
    static func refusesDeltaLink(status: Int) -> Bool {
        (400..<500).contains(status) && ![401, 403, 407, 408, 425, 429].contains(status)
    }
}
