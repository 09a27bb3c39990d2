extension RESTResourceFile {
    /// One resource from its JSON object (see ``RESTResourceFile``).
    static func resource(_ value: JSONValue, path: String) throws -> RESTResource {
        var o = try StrictJSONObject(value, path: path)
        var r = RESTResource(path: try o.requiredString("path"), wrapKey: try o.string("wrapKey"))
        if let member = try o.string("memberPath") { r.memberPath = member }
        if let suffix = try o.nullableString("formatSuffix") { r.formatSuffix = suffix }
        r.nested = try o.object("nested") { n in
            let operations = try (n.strings("for") ?? []).map { name in
                guard let op = RESTResource.Operation(rawValue: name) else {
                    throw StrictJSONObject.error(n.at("for"), "holds \"\(name)\"; expected create or update")
                }
                return op
            }
            return RESTResource.NestedRoute(path: try n.requiredString("path"), for: Set(operations))
        }
        if let style = try o.choice("keyStyle", ["snakeCase": RESTResource.KeyStyle.snakeCase, "identity": .identity]) {
            r.keyStyle = style
        }
        if let renames = try o.stringMap("renames") { r.renames = renames }
        if let fields = try o.strings("neverSent") { r.neverSent = Set(fields) }
        if let codecs = try o.stringMap("codecs") {
            r.codecs = try codecs.mapValues { name in
                guard let codec = namedCodecs[name] else {
                    throw StrictJSONObject.error(o.at("codecs"), "names the codec \"\(name)\"; known: \(namedCodecs.keys.sorted().joined(separator: ", "))")
                }
                return codec
            }
        }
        if let method = try o.choice("updateMethod", ["PATCH": RESTResource.UpdateMethod.patch, "PUT": .put]) {
            r.updateMethod = method
        }
        if let concurrency = try o.choice("concurrency", ["versionField": RESTResource.Concurrency.versionField,
                                                           "ifMatch": .ifMatch, "none": .none]) {
            r.concurrency = concurrency
        }
        if let field = try o.nullableString("versionField") { r.versionField = field }
        if let ids = try o.choice("ids", ["server": RESTResource.IDAssignment.server, "client": .client]) { r.ids = ids }
        r.idPattern = try o.string("idPattern")
        if let associations = try o.stringMap("associations") { r.associations = associations }
        r.createLookupParameter = try o.string("createLookupParameter")
        if let lost = try o.choice("lostCreates", ["replay": RESTResource.LostCreates.replay, "refresh": .refresh]) {
            r.lostCreates = lost
        }
        if let parameters = try o.stringMap("scopeParameters") { r.scopeParameters = parameters }
        if let pull = try o.object("pull", pullFeed) { r.pull = pull }
        if let routes = try o.object("blobRoutes", { routes in
            try Dictionary(uniqueKeysWithValues: routes.keys.map { field in
                (field, try routes.object(field, blobRoute)!)
            })
        }) { r.blobRoutes = routes }
        try o.finish()
        try check(r, path: path)
        return r
    }

    /// Settings that each are valid but together would do nothing, or silently less than they say.
    private static func check(_ r: RESTResource, path: String) throws {
        if case .versionField = r.concurrency, r.versionField == nil {
            // Last write wins only when the file says so.
            throw StrictJSONObject.error("\(path).versionField", "is null, so the default concurrency \"versionField\" has "
                + "no version to send: write \"concurrency\": \"ifMatch\" (ETags), or \"none\" to accept that the last write wins")
        }
        if case .cursor = r.pull.paging, r.pull.cursorParameter == nil {
            throw StrictJSONObject.error("\(path).pull.paging.kind", "is cursor, which needs pull.cursorParameter; "
                + "choose bodyLink, limitOffset, pageNumber, linkHeader or none")
        }
    }

    private static func pullFeed(_ o: inout StrictJSONObject) throws -> RESTResource.PullFeed {
        var feed = RESTResource.PullFeed()
        if let parameter = try o.nullableString("cursorParameter") { feed.cursorParameter = parameter }
        if let field = try o.string("cursorField") { feed.cursorField = field }
        if let field = try o.nullableString("tombstoneField") { feed.tombstoneField = field }
        feed.listKey = try o.string("listKey")
        feed.countField = try o.string("countField")
        if let deletions = try o.choice("deletions", ["tombstones": RESTResource.Deletions.tombstones, "sweep": .sweep]) {
            feed.deletions = deletions
        }
        if let enabled = try o.bool("enabled") { feed.isEnabled = enabled }
        if let paging = try o.object("paging", self.paging) { feed.paging = paging }
        return feed
    }

    private static func paging(_ o: inout StrictJSONObject) throws -> RESTResource.Paging {
        let kind = try o.requiredString("kind")
        let size = try o.int("size", in: 1...100_000) ?? 100
        switch kind {
        case "cursor": return .cursor(sizeParameter: try o.string("sizeParameter") ?? "per_page", size: size)
        case "pageNumber":
            return .pageNumber(page: try o.string("pageParameter") ?? "page", sizeParameter: try o.string("sizeParameter") ?? "per_page",
                               size: size)
        case "linkHeader": return .linkHeader(sizeParameter: try o.string("sizeParameter") ?? "per_page", size: size)
        case "bodyLink": return .bodyLink(nextField: try o.string("nextField") ?? "next", sizeParameter: try o.string("sizeParameter"), size: size)
        case "limitOffset":
            return .limitOffset(limitParameter: try o.string("limitParameter") ?? "limit",
                                offsetParameter: try o.string("offsetParameter") ?? "offset", size: size)
        case "none": return .none
        default:
            throw StrictJSONObject.error(o.at("kind"),
                                        "must be one of cursor, pageNumber, linkHeader, bodyLink, limitOffset, none, got \"\(kind)\"")
        }
    }

    private static func blobRoute(_ o: inout StrictJSONObject) throws -> RESTBlobRoute {
        RESTBlobRoute(path: try o.requiredString("path"), method: try o.string("method") ?? "POST",
                      partName: try o.requiredString("partName"), urlField: try o.requiredString("urlField"),
                      sha256Field: try o.requiredString("sha256Field"), metadataFields: try o.strings("metadataFields") ?? [])
    }
}
