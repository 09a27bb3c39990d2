/// The typed errors of a pull whose answers do not fit the resource's feed settings (pure):
/// each names the setting (`resources.<collection>.pull…`) the server does not follow.
enum RESTPullProblem {
    /// The setting path of a feed member, e.g. `resources.tasks.pull.paging.offsetParameter`.
    static func setting(_ collection: String, _ member: String) -> String { "resources.\(collection).pull.\(member)" }

    /// A page that holds exactly the records of the page before: the server ignored what
    /// makes pages differ.
    static func repeatedPage(_ collection: String, paging: RESTResource.Paging, cursorParameter: String?,
                             url: String, what: String) -> OfflineStoreError {
        let ignored: String
        switch paging {
        case .cursor:
            ignored = "\(setting(collection, "cursorParameter")) (\"\(cursorParameter ?? "")\"); use a paging kind the server "
                + "follows (bodyLink, limitOffset, pageNumber), or filter by the cursor on the server (Docs/Backends.md, server recipes)"
        case .pageNumber(let page, _, _): ignored = "\(setting(collection, "paging.pageParameter")) (\"\(page)\")"
        case .limitOffset(_, let offset, _): ignored = "\(setting(collection, "paging.offsetParameter")) (\"\(offset)\")"
        case .bodyLink(let field, _, _): ignored = "the links of \(setting(collection, "paging.nextField")) (\"\(field)\")"
        case .linkHeader: ignored = "the Link header's next links (\(setting(collection, "paging.kind")) linkHeader)"
        case .none: ignored = setting(collection, "paging")
        }
        return OfflineStoreError(.configuration, "\(what): the page \(url) holds the same records as the page before, "
            + "so the pull would never end: the server ignores \(ignored)")
    }

    /// A next page that would be the very request just answered.
    static func sameRequest(_ collection: String, paging: RESTResource.Paging, size: Int?, cursor: String?,
                            url: String, what: String) -> OfflineStoreError {
        if case .cursor = paging {
            return OfflineStoreError(.configuration, "\(what): the next page would start at the same cursor \(cursor ?? "") again, "
                + "so the pull would never end: more than \(size ?? 0) records share that cursor value, or the server's "
                + "filter includes it (>= instead of >); raise \(setting(collection, "paging.size")) or make the filter strict")
        }
        return OfflineStoreError(.configuration, "\(what): the next link points at the page just read (\(url)), so the pull "
            + "would never end: check \(setting(collection, "paging"))")
    }

    /// A pull that ended with fewer records than the first page announced.
    static func shortPull(_ collection: String, read: Int, announced: Int, what: String) -> OfflineStoreError {
        OfflineStoreError(.badResponse, "\(what): the pull ended after \(read) records but the server announced \(announced) "
            + "(\(setting(collection, "countField"))): pages were missed, so the pull is not complete; check "
            + "\(setting(collection, "paging")) (is the next page where the settings say?)")
    }

    /// A list answer that is not where ``RESTResource/PullFeed/listKey`` says.
    static func noList(_ collection: String, listKey: String?, json: JSONValue, reply: RESTReply, what: String) -> OfflineStoreError {
        let setting = setting(collection, "listKey")
        var message: String
        if let members = json.objectValue {
            let keys = members.keys.sorted()
            let lists = keys.filter { members[$0]?.arrayValue != nil }
            if let listKey {
                message = "\(what): the answer has no list of records at \(setting) \"\(listKey)\" (its keys: \(keys.joined(separator: ", ")))"
            } else {
                message = "\(what): the answer is a JSON object (keys: \(keys.joined(separator: ", "))), not a list of records: "
                    + "set \(setting) to the key that holds them"
            }
            if let candidate = lists.first { message += "; \"\(candidate)\" holds a list" }
        } else {
            message = listKey.map { "\(what): the answer is \(json.typeName), not an object with a list at \(setting) \"\($0)\"" }
                ?? "\(what): expected a JSON array of records, got \(json.typeName)"
        }
        return OfflineStoreError(.configuration, message, status: reply.status, body: String(reply.text.prefix(2000)))
    }
}
