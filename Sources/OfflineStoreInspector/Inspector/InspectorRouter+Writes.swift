import OfflineStore

/// The write routes: each one call of the store's public API, after checking the input.
extension InspectorRouter {
    /// `POST /api/resolve`: `{"collection","id","keep":"local"|"server"}` or
    /// `{"collection","id","fields":{NAME:{"take":"local"|"server"|"edit","json":TEXT}}}`.
    ///
    /// Field choices build a merged object (``FieldMerge``) that goes through
    /// ``ObjectStore/resolve(_:id:with:)`` as `.merged`, so the collection's validation applies.
    func resolve(_ body: JSONValue) throws -> InspectorResponse {
        let (name, id) = (try string(body, "collection"), try string(body, "id"))
        let conflict = try findConflict(name, id)
        let resolution: Resolution
        var summary: String
        switch (body["keep"]?.stringValue, body["fields"]?.objectValue) {
        case ("local"?, nil):
            resolution = .keepLocal
            summary = "kept the local copy"
        case ("server"?, nil):
            resolution = .keepServer
            summary = "kept the server's copy"
        case (nil, let fields?):
            var choices: [String: FieldMerge.Choice] = [:]
            for (field, choice) in fields {
                choices[field] = try Self.choice(choice, field: field)
            }
            resolution = .merged(try FieldMerge.merge(conflict, choices: choices))
            summary = "merged field by field"
        default:
            throw InspectorError(400, "give either \"keep\": \"local\" or \"server\", or \"fields\" with a choice per field")
        }
        try context.store.resolve(name, id: id, with: resolution)
        summary = "\(name)/\(id): \(summary); the result goes to the server with the next flush or sync"
        let object = try context.store.collection(name).object(id)
        return .json(["message": .string(summary), "object": object.map(InspectorShape.object) ?? .null])
    }

    private static func choice(_ value: JSONValue, field: String) throws -> FieldMerge.Choice {
        switch value["take"]?.stringValue {
        case "local": return .local
        case "server": return .server
        case "edit":
            guard let text = value["json"]?.stringValue else {
                throw InspectorError(400, "field '\(field)': an edited value needs \"json\", the value as JSON text")
            }
            return .edited(text)
        default:
            throw InspectorError(400, "field '\(field)': \"take\" must be \"local\", \"server\" or \"edit\"")
        }
    }

    /// `POST /api/failed-action`: `{"collection","id","action":"retry"|"rollback"|"discard"}`.
    func failedAction(_ body: JSONValue) throws -> InspectorResponse {
        let (name, id) = (try string(body, "collection"), try string(body, "id"))
        let actionName = try string(body, "action")
        guard let action = FailedEntryAction(rawValue: actionName) else {
            throw InspectorError(400, "unknown action '\(actionName)'; one of retry, rollback, discard")
        }
        let objects = try collection(name)
        try context.store.perform(action, on: name, id: id)
        let object = try objects.object(id)
        return .json([
            "message": .string("\(name)/\(id): \(action.rawValue) done"),
            "object": object.map(InspectorShape.object) ?? .null,
        ])
    }

    /// `POST /api/run`: `{"operation":"flush"|"refresh"|"sync"}`, started in the background
    /// (202); `/api/live` follows it.
    func run(_ body: JSONValue) throws -> InspectorResponse {
        let name = try string(body, "operation")
        guard let operation = SyncOperation(rawValue: name) else {
            throw InspectorError(400, "unknown operation '\(name)'; one of flush, refresh, sync")
        }
        guard context.store.backend != nil else {
            throw InspectorError(409, "this store has no server to \(name) with")
        }
        try context.activity.start(operation)
        return .json(["message": .string("\(name) started")], status: 202)
    }
}
