import Foundation

extension KintoBackend {
    /// Reads one record with `GET …/records/{id}`; nil on 404 (missing or deleted).
    ///
    /// - Throws: ``OfflineStoreError``: `invalidID`, `unauthorized` (401/403; a missing bucket
    ///   also answers 403), `offline`, `timeout`, `server`, `badResponse`, `configuration`.
    public func fetch(collection: String, id: String) async throws -> RemoteChange? {
        try checkName(collection)
        try validate(id: id)
        try checkBackoff()
        let what = "fetching \(collection)/\(id)"
        let reply = try await send("GET", paths.url(paths.recordPath(collection, id: id)), what: what)
        if reply.status == 404 { return nil }
        guard reply.isSuccess else { throw reply.error(what) }
        guard let data = reply.json?["data"], data.objectValue != nil else { throw reply.badResponse(what) }
        return try Self.changes([data], reply: reply, what: what).first
    }

    /// Lists live records matching the query with Kinto's filters, a page at a time
    /// (`records?status=%22open%22&gt_priority=2&_limit=pageSize`), following `Next-Page`.
    ///
    /// Values are sent as JSON (Kinto parses filter values as JSON), so `"1"` the string
    /// and `1` the number stay apart. `isIn`/`notIn` become `in_`/`exclude_` with
    /// comma-separated values (a string value must not contain a comma); `contains` becomes
    /// `like_field=*value*`. A missing collection is an empty last page.
    ///
    /// - Throws: ``OfflineStoreError``: `invalidFieldPath`/`invalidJSON` (bad query),
    ///   `invalidOperation` (a continuation of another collection or server), and the errors of a pull.
    public func search(collection: String, query: ServerQuery, continuing: PullContinuation?) async throws -> PullPage {
        try checkName(collection)
        try query.validate()
        try checkBackoff()
        let recordsURL = paths.url(paths.recordsPath(collection))
        let url: URL
        if let continuing {
            guard let next = URL(string: continuing.token), paths.isSameOrigin(next), next.path == recordsURL.path else {
                throw OfflineStoreError(.invalidOperation, "the search continuation does not point at collection \"\(collection)\" of this server")
            }
            url = next
        } else {
            let filters = try query.terms.map(Self.filter)
            url = paths.url(paths.recordsPath(collection), query: filters + [("_limit", String(max(1, configuration.pageSize)))])
        }
        let what = "searching collection \"\(collection)\""
        let reply = try await send("GET", url, what: what)
        if reply.status == 404 { return PullPage(changes: [], cursor: nil, next: nil) }
        guard reply.isSuccess else { throw reply.error(what) }
        guard let items = reply.json?["data"]?.arrayValue else { throw reply.badResponse(what) }
        let changes = try Self.changes(items, reply: reply, what: what)
        var next: PullContinuation?
        if let link = reply.header("Next-Page"), !link.isEmpty { next = PullContinuation(token: link) }
        let total = reply.header("Total-Records").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return PullPage(changes: changes, cursor: nil, next: next, total: total)
    }

    /// One query term as a Kinto filter parameter.
    static func filter(_ term: ServerQuery.Term) throws -> (String, String) {
        let field = term.field
        let json = { (v: JSONValue) in v.serialized() }
        switch term.op {
        case .equal: return (field, json(term.value))
        case .notEqual: return ("not_" + field, json(term.value))
        case .lessThan: return ("lt_" + field, json(term.value))
        case .greaterThan: return ("gt_" + field, json(term.value))
        case .atLeast: return ("min_" + field, json(term.value))
        case .atMost: return ("max_" + field, json(term.value))
        case .has: return ("has_" + field, term.value == .bool(true) ? "true" : "false")
        case .contains: return ("like_" + field, "*" + (term.value.stringValue ?? "") + "*")
        case .isIn, .notIn:
            let values = term.value.arrayValue ?? []
            if values.contains(where: { $0.stringValue?.contains(",") == true }) {
                throw OfflineStoreError(.invalidJSON, "Kinto cannot filter '\(field)' by a value containing a comma")
            }
            return ((term.op == .isIn ? "in_" : "exclude_") + field, values.map(json).joined(separator: ","))
        }
    }
}
