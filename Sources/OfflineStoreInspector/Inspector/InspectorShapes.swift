import Foundation
import OfflineStore

/// The JSON documents the inspector's API answers with (Docs/Inspector.md lists them).
enum InspectorShape {
    static func optional(_ value: JSONValue?) -> JSONValue { value ?? .null }
    static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    static func optional(_ value: Int?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }
    static func int(_ value: Int) -> JSONValue { .int(Int64(value)) }

    /// A date as ISO 8601 text (UTC, milliseconds), or null.
    static func timestamp(_ date: Date?) -> JSONValue {
        guard let date else { return .null }
        return .string(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    /// An object with every copy and its sync state.
    static func object(_ object: StoredObject) -> JSONValue {
        [
            "collection": .string(object.collection), "id": .string(object.id), "state": .string(object.state.rawValue),
            "value": optional(object.value), "local": optional(object.local), "deleted": .bool(object.isLocallyDeleted),
            "persistent": optional(object.persistent), "base": optional(object.base),
            "baseVersion": optional(object.baseVersion), "serverVersion": optional(object.serverVersion),
        ]
    }

    /// A queue entry, with what request it becomes and what the inspector saw fold into it.
    static func entry(_ entry: QueueEntry, history: QueueHistory) -> JSONValue {
        [
            "seq": .int(entry.seq), "collection": .string(entry.collection), "id": .string(entry.objectID),
            "kind": .string(entry.kind.rawValue), "state": .string(entry.state.rawValue),
            "attempts": int(entry.attempts), "lastError": optional(entry.lastError), "status": optional(entry.status),
            "body": optional(entry.responseBody), "baseVersion": optional(entry.baseVersion),
            "failure": optional(entry.failure?.rawValue),
            "createdAt": timestamp(entry.createdAt), "notBefore": timestamp(entry.notBefore),
            "request": .string(request(for: entry)),
            "folded": int(history.folded(into: entry.seq)),
            "notes": .array(history.notes(for: entry.seq).map(JSONValue.string)),
        ]
    }

    /// The request an entry becomes, in words: one per entry, whatever it absorbed.
    static func request(for entry: QueueEntry) -> String {
        switch entry.kind {
        case .create: "create: sends the object's current local copy; the server must not have it yet"
        case .update: "update: sends the current local copy if the server is still at version \(entry.baseVersion ?? "?")"
        case .delete: "delete: removes the object if the server is still at version \(entry.baseVersion ?? "?")"
        }
    }

    /// A failed entry with the server's answer, its field messages and the actions it allows.
    static func failed(_ entry: QueueEntry, history: QueueHistory) -> JSONValue {
        var shape = self.entry(entry, history: history)
        let messages = entry.validationMessages.fields.mapValues { JSONValue.array($0.map(JSONValue.string)) }
        shape["validation"] = .object(messages)
        shape["actions"] = .array(entry.allowedActions.map { .string($0.rawValue) })
        return shape
    }

    /// A conflict with its per-field comparison.
    static func conflict(_ conflict: Conflict) -> JSONValue {
        let fields = FieldMerge.fields(of: conflict).map { field -> JSONValue in
            [
                "name": .string(field.name), "base": optional(field.base), "local": optional(field.local),
                "server": optional(field.server), "change": .string(field.change.rawValue),
                "hasBase": .bool(field.base != nil), "hasLocal": .bool(field.local != nil),
                "hasServer": .bool(field.server != nil),
            ]
        }
        return [
            "collection": .string(conflict.collection), "id": .string(conflict.id), "base": optional(conflict.base),
            "local": optional(conflict.local), "server": optional(conflict.server),
            "serverVersion": optional(conflict.serverVersion), "fields": .array(fields),
            "mergeable": .bool(conflict.local != nil && conflict.server != nil),
        ]
    }

    /// The inspector's runs and their live progress.
    static func activity(_ s: SyncActivity.Snapshot, storeSyncing: Bool) -> JSONValue {
        var progress: JSONValue = .null
        if let p = s.progress {
            progress = [
                "collection": .string(p.collection), "direction": .string(p.direction.rawValue),
                "processed": int(p.processed), "total": optional(p.total), "cumulative": int(p.cumulative),
            ]
        }
        var report: JSONValue = .null
        if let r = s.lastReport {
            report = [
                "pushed": int(r.pushed), "pulled": int(r.pulled), "conflicts": int(r.conflicts),
                "failed": int(r.failed), "pending": int(r.pending),
            ]
        }
        return [
            "running": optional(s.running?.rawValue), "progress": progress,
            "conflictsMet": int(s.conflictsMet), "failedMet": int(s.failedMet), "startedAt": timestamp(s.startedAt),
            "last": optional(s.last?.rawValue), "lastReport": report, "lastError": optional(s.lastError),
            "lastFinishedAt": timestamp(s.lastFinishedAt), "lastFlushAt": timestamp(s.lastFlushAt),
            "lastRefreshAt": timestamp(s.lastRefreshAt),
            // A flush, refresh, sync or reset of the store file, from this page or any process.
            "storeSyncing": .bool(storeSyncing),
        ]
    }
}
