import OfflineStore

/// The read routes: overview, object browser, one object, queue, conflicts, failed entries.
extension InspectorRouter {
    /// Objects a page lists at most.
    static let maxPageSize = 500

    /// `/api/overview`: the store, its server, the inspector's runs and every collection's counts.
    func overview() throws -> InspectorResponse {
        let store = context.store
        let collections = try store.collections().map { descriptor -> JSONValue in
            let counts = try store.collection(descriptor.name).stateCounts()
            let pending = [SyncState.created, .updated, .deleted].reduce(0) { $0 + (counts[$1] ?? 0) }
            let indexed = (descriptor.fields ?? []).filter(\.isIndexed).map { JSONValue.string($0.name) }
            return [
                "name": .string(descriptor.name), "localOnly": .bool(descriptor.isLocalOnly),
                "conflictPolicy": .string(descriptor.conflictPolicy.name),
                "updatePolicy": .string(descriptor.updatePolicy?.rawValue ?? "store default"),
                "fixedSchema": .bool(descriptor.hasFixedSchema), "indexedFields": .array(indexed),
                "synced": InspectorShape.int(counts[.synced] ?? 0), "pending": InspectorShape.int(pending),
                "conflicted": InspectorShape.int(counts[.conflicted] ?? 0),
                "failed": InspectorShape.int(counts[.failed] ?? 0),
                "total": InspectorShape.int(counts.values.reduce(0, +)),
                "schemaVersion": InspectorShape.int(descriptor.schemaVersion),
            ]
        }
        let failed = try store.queueCount(state: .failed)
        var server: JSONValue = .null
        if let s = context.server {
            server = ["backend": .string(s.backend), "url": .string(s.url), "bucket": InspectorShape.optional(s.bucket),
                      "writeMode": .string(s.writeMode)]
        }
        return .json([
            "store": .string(store.path), "server": server, "allowWrites": .bool(context.allowWrites),
            "lastSync": InspectorShape.timestamp(try store.lastSync()), "collections": .array(collections),
            "queue": InspectorShape.int(try store.queueCount()), "failed": InspectorShape.int(failed),
            "conflicts": InspectorShape.int(try store.conflicts().count),
            "activity": InspectorShape.activity(context.activity.snapshot, storeSyncing: context.store.isSyncing),
            "generation": .int(Int64(context.watcher.generation)),
        ])
    }

    /// `/api/objects?collection=&q=&field=&value=&state=&offset=&limit=`: one page of objects.
    ///
    /// `q` matches ids containing the text; `field`/`value` an equal field (the value is
    /// JSON when it parses, else a string); both are bound by the library, never SQL text.
    func objects(_ request: InspectorRequest) throws -> InspectorResponse {
        let objects = try collection(try parameter(request, "collection"))
        let limit = try integer(request, "limit", default: 50, in: 1...Self.maxPageSize)
        let offset = try integer(request, "offset", default: 0, in: 0...Int(Int32.max))
        var conditions: [Condition] = []
        if let text = request.query["q"], !text.isEmpty { conditions.append(.contains("id", text)) }
        if let field = request.query["field"], !field.isEmpty {
            let text = request.query["value"] ?? ""
            conditions.append(.equal(field, (try? JSONValue(parsing: text)) ?? .string(text)))
        }
        var state: SyncState?
        if let name = request.query["state"], !name.isEmpty {
            guard let parsed = SyncState(rawValue: name) else {
                let known = SyncState.allCases.map(\.rawValue).joined(separator: ", ")
                throw InspectorError(400, "unknown state '\(name)'; one of \(known)")
            }
            state = parsed
        }
        let condition: Condition? = conditions.isEmpty ? nil : conditions.count == 1 ? conditions[0] : .and(conditions)
        let page = try objects.objects(where: condition, state: state, limit: limit + 1, offset: offset)
        return .json([
            "collection": .string(objects.name), "offset": InspectorShape.int(offset), "limit": InspectorShape.int(limit),
            "more": .bool(page.count > limit),
            "objects": .array(page.prefix(limit).map(InspectorShape.object)),
        ])
    }

    /// `/api/object?collection=&id=`: every copy, the object's queue entries, its conflict.
    func object(_ request: InspectorRequest) throws -> InspectorResponse {
        let objects = try collection(try parameter(request, "collection"))
        let id = try parameter(request, "id")
        guard let object = try objects.object(id) else {
            throw InspectorError(404, "\(objects.name)/\(id) does not exist")
        }
        let entries = try context.store.queueEntries(collection: objects.name, id: id)
        var conflict: JSONValue = .null
        if object.state == .conflicted,
           let found = try context.store.conflicts(in: objects.name).first(where: { $0.id == id }) {
            conflict = InspectorShape.conflict(found)
        }
        return .json([
            "object": InspectorShape.object(object), "conflict": conflict,
            "queue": .array(entries.map { InspectorShape.entry($0, history: context.history) }),
        ])
    }

    /// `/api/queue`: every entry in FIFO order, and the entries seen leaving it.
    func queue() throws -> InspectorResponse {
        let entries = try context.store.queueEntries()
        let departures = context.history.departures.map { d -> JSONValue in
            ["seq": .int(d.seq), "collection": .string(d.collection), "id": .string(d.id),
             "kind": .string(d.kind.rawValue), "note": .string(d.note), "at": InspectorShape.timestamp(d.at)]
        }
        return .json([
            "entries": .array(entries.map { InspectorShape.entry($0, history: context.history) }),
            "departed": .array(departures),
        ])
    }

    /// `/api/conflicts[?collection=]`: every conflicted object with its per-field comparison.
    func conflicts(_ request: InspectorRequest) throws -> InspectorResponse {
        let name = request.query["collection"].flatMap { $0.isEmpty ? nil : $0 }
        if let name { _ = try collection(name) }
        return .json(["conflicts": .array(try context.store.conflicts(in: name).map(InspectorShape.conflict))])
    }

    /// `/api/conflict?collection=&id=`: one conflict (404 or 409 when there is none).
    func conflict(_ request: InspectorRequest) throws -> InspectorResponse {
        .json(InspectorShape.conflict(try findConflict(try parameter(request, "collection"), try parameter(request, "id"))))
    }

    /// `/api/failed[?collection=]`: rejected entries with the server's answer and their actions.
    func failed(_ request: InspectorRequest) throws -> InspectorResponse {
        let name = request.query["collection"].flatMap { $0.isEmpty ? nil : $0 }
        if let name { _ = try collection(name) }
        let entries = try context.store.failedEntries(collection: name)
        return .json(["failed": .array(entries.map { InspectorShape.failed($0, history: context.history) })])
    }

    /// The conflict of an object: 404 without the object, 409 when it is not conflicted.
    func findConflict(_ name: String, _ id: String) throws -> Conflict {
        let objects = try collection(name)
        if let found = try context.store.conflicts(in: name).first(where: { $0.id == id }) { return found }
        guard let object = try objects.object(id) else { throw InspectorError(404, "\(name)/\(id) does not exist") }
        throw InspectorError(409, "\(name)/\(id) is not conflicted (it is \(object.state.rawValue))")
    }
}
