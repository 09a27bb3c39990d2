import Foundation

/// Where the next page of a Kinto pull starts (pure; Docs/Sync.md, cursor safety).
///
/// Kinto's `Next-Page` continues strictly after the last record listed (`last_modified > L`,
/// L from its `_token`). Kinto's memory backend stores a client-given `last_modified` in the
/// past as it is, so two changes can share L (a record and a tombstone), and its pages list
/// live records first at a tie: a page ending at the record skips the tombstone, and a pull
/// from the same `_since` pages the same way every time, so it is skipped for good. The next
/// page therefore starts *at* L (`_since = L − 1`, no `_token`): the changes at L are listed
/// again (a re-read changes nothing). A page that listed nothing but L would come back whole,
/// so after one Kinto's own `Next-Page` is followed. A pull without `_since` (a first pull
/// that lists live records only) keeps Kinto's `Next-Page`: adding `_since` would list tombstones.
enum KintoPageBoundary {
    /// The `last_modified` Kinto's `Next-Page` continues after, read from its `_token`
    /// (URL-encoded base64 JSON `{"last_object":{"last_modified":L},…}`); nil when unreadable.
    static func boundary(of nextPage: URL) -> Int64? {
        guard let items = URLComponents(url: nextPage, resolvingAgainstBaseURL: false)?.queryItems,
              var token = items.last(where: { $0.name == "_token" })?.value else { return nil }
        token = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while token.utf8.count % 4 != 0 { token += "=" }
        guard let data = Data(base64Encoded: token), let text = String(data: data, encoding: .utf8),
              let json = try? JSONValue(parsing: text) else { return nil }
        return json["last_object"]?["last_modified"]?.intValue
    }

    /// `nextPage` made to start at its boundary: `_since` set to the boundary − 1 and the
    /// `_token` dropped, every other parameter kept in order; nil when the pull has no `_since`
    /// or the boundary cannot be read (Kinto's `Next-Page` is followed then).
    static func overlapping(_ nextPage: URL) -> URL? {
        guard var components = URLComponents(url: nextPage, resolvingAgainstBaseURL: false),
              let items = components.percentEncodedQueryItems, items.contains(where: { $0.name == "_since" }),
              let boundary = boundary(of: nextPage), boundary > Int64.min else { return nil }
        components.percentEncodedQueryItems = items.compactMap { item in
            switch item.name {
            case "_token": return nil
            case "_since": return URLQueryItem(name: "_since", value: String(boundary - 1))
            default: return item
            }
        }
        return components.url
    }

    /// The page to ask after one that listed changes from `lowest` up, whose `Next-Page` is
    /// `nextPage`: the overlapping one, unless the page listed only the boundary's timestamp.
    static func next(after nextPage: URL, lowest: Int64?) -> URL {
        guard let overlap = overlapping(nextPage), let lowest, lowest != boundary(of: nextPage) else { return nextPage }
        return overlap
    }
}
