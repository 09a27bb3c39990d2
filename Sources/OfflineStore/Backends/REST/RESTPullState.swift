import Foundation

/// Where a REST pull is between pages, carried in its ``PullContinuation`` token (pure):
/// the next page's URL, the page number or offset, what the previous page held (to catch a
/// server that answers the same page again), how many records were read, the count the
/// first page announced, and the highest cursor mark seen.
struct RESTPullState: Sendable, Hashable {
    /// The URL of the page to fetch.
    var url: URL
    /// The page's number, 1 for the first.
    var page = 1
    /// The records before this page (the offset of `limitOffset` paging).
    var offset = 0
    /// The cursor the page was asked with (keyset paging), nil for none.
    var askedCursor: String?
    /// The fingerprint of the previous page's records; nil on the first page.
    var previous: String?
    /// Records read on the pages before this one.
    var read = 0
    /// The count the first page announced (``RESTResource/PullFeed/countField``).
    var announced: Int?
    /// The highest cursor mark on the pages before this one.
    var highest: String?

    /// Whether this is the pull's first page.
    var isFirstPage: Bool { page == 1 }

    /// The state as a continuation token.
    var token: String {
        var members: [String: JSONValue] = ["url": .string(url.absoluteString), "page": .int(Int64(page)),
                                            "offset": .int(Int64(offset)), "read": .int(Int64(read))]
        if let askedCursor { members["asked"] = .string(askedCursor) }
        if let previous { members["previous"] = .string(previous) }
        if let announced { members["announced"] = .int(Int64(announced)) }
        if let highest { members["highest"] = .string(highest) }
        return JSONValue.object(members).serialized()
    }

    init(url: URL, askedCursor: String?) {
        self.url = url
        self.askedCursor = askedCursor
    }

    /// Reads a token this type wrote.
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` for a token it did not write.
    init(token: String, what: String) throws {
        guard let json = try? JSONValue(parsing: Data(token.utf8)), let text = json["url"]?.stringValue,
              let url = URL(string: text), let page = json["page"]?.intValue, let offset = json["offset"]?.intValue,
              let read = json["read"]?.intValue else {
            throw OfflineStoreError(.badResponse, "\(what): not a continuation of a REST pull: \(token.prefix(200))")
        }
        self.url = url
        self.page = Int(page)
        self.offset = Int(offset)
        self.read = Int(read)
        askedCursor = json["asked"]?.stringValue
        previous = json["previous"]?.stringValue
        announced = json["announced"]?.intValue.map { Int($0) }
        highest = json["highest"]?.stringValue
    }

    /// A page's records as one short text: equal for pages holding the same records at the
    /// same versions (FNV-1a over ids and versions, in order).
    static func fingerprint(_ changes: [RemoteChange]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            hash ^= 0xff
            hash = hash &* 0x100_0000_01b3
        }
        for change in changes {
            mix(change.id)
            mix(change.version)
        }
        return "\(changes.count):" + String(hash, radix: 16)
    }

    /// The state of the page after this one, which held `changes` (`count` records, the
    /// highest mark `newest`), at `next`.
    func advanced(to next: URL, changes: [RemoteChange], count: Int, newest: String?, askedCursor: String?) -> RESTPullState {
        var state = self
        state.url = next
        state.page += 1
        state.offset += count
        state.read += count
        state.previous = Self.fingerprint(changes)
        state.highest = [highest, newest].compactMap { $0 }.max()
        state.askedCursor = askedCursor
        return state
    }
}

extension URL {
    /// The URL with the query items named in `items` set (added, or replacing their values).
    func settingQueryItems(_ items: [URLQueryItem]) -> URL? {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return nil }
        var query = components.queryItems ?? []
        query.removeAll { item in items.contains { $0.name == item.name } }
        components.queryItems = query + items
        // `+` in a query value would read as a space on the server.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url
    }
}

extension JSONValue {
    /// The value at a dotted path (`meta.total`), or nil; a path without dots is one key.
    func value(atPath path: String) -> JSONValue? {
        var value: JSONValue? = self
        for key in path.split(separator: ".", omittingEmptySubsequences: false) {
            value = value?[String(key)]
        }
        return value
    }
}
