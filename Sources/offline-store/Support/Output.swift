import Foundation
import OfflineStore

/// Writes JSON documents to stdout (one per line, written at once so a reader of a pipe
/// sees each line as soon as it is complete) and messages to stderr.
enum Output {
    /// Writes one JSON document and a newline to stdout.
    static func line(_ value: JSONValue) {
        FileHandle.standardOutput.write(Data((value.serialized() + "\n").utf8))
    }

    /// Writes "error: message" to stderr.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    }

    /// Writes a note (not an error) to stderr.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("offline-store: \(message)\n".utf8))
    }
}

/// The JSON shapes the commands print (Docs/CLI.md lists them).
enum Shape {
    static func optional(_ value: JSONValue?) -> JSONValue { value ?? .null }
    static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    static func optional(_ value: Int?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }

    /// `get --all`: every copy and the sync state.
    static func object(_ object: StoredObject) -> JSONValue {
        [
            "collection": .string(object.collection), "id": .string(object.id), "state": .string(object.state.rawValue),
            "local": optional(object.local), "deleted": .bool(object.isLocallyDeleted),
            "persistent": optional(object.persistent), "base": optional(object.base),
            "baseVersion": optional(object.baseVersion), "serverVersion": optional(object.serverVersion),
        ]
    }

    /// `queue`: one entry.
    static func entry(_ entry: QueueEntry) -> JSONValue {
        [
            "seq": .int(entry.seq), "collection": .string(entry.collection), "id": .string(entry.objectID),
            "kind": .string(entry.kind.rawValue), "state": .string(entry.state.rawValue),
            "attempts": .int(Int64(entry.attempts)), "lastError": optional(entry.lastError),
            "status": optional(entry.status),
        ]
    }

    /// `failed`: one rejected entry with the server's answer.
    static func failedEntry(_ entry: QueueEntry) -> JSONValue {
        [
            "seq": .int(entry.seq), "collection": .string(entry.collection), "id": .string(entry.objectID),
            "kind": .string(entry.kind.rawValue), "status": optional(entry.status), "body": optional(entry.responseBody),
            "attempts": .int(Int64(entry.attempts)), "lastError": optional(entry.lastError),
            "failure": optional(entry.failure?.rawValue),
        ]
    }

    /// `conflicts`: base, local and server copies side by side.
    static func conflict(_ conflict: Conflict) -> JSONValue {
        [
            "collection": .string(conflict.collection), "id": .string(conflict.id), "base": optional(conflict.base),
            "local": optional(conflict.local), "server": optional(conflict.server),
            "serverVersion": optional(conflict.serverVersion),
        ]
    }

    /// `flush`, `refresh`, `sync`: what was done and what is left; `error` when the run stopped early.
    static func report(_ report: SyncReport, error: String? = nil) -> JSONValue {
        var shape: JSONValue = [
            "pushed": .int(Int64(report.pushed)), "pulled": .int(Int64(report.pulled)),
            "conflicts": .int(Int64(report.conflicts)), "failed": .int(Int64(report.failed)),
            "pending": .int(Int64(report.pending)),
            "conflictsDetected": .int(Int64(report.conflictsDetected)),
            "conflictsResolved": .int(Int64(report.conflictsResolved)),
            "leftScope": .int(Int64(report.leftScope)), "swept": .int(Int64(report.swept)),
            "lateDeliveriesUndone": .int(Int64(report.lateDeliveriesUndone)),
            "error": optional(error),
        ]
        // Only a run the server refused a collection in has the key, so others print as they always did.
        if !report.refused.isEmpty {
            shape["refused"] = .array(report.refused.map { refusal in
                ["collection": .string(refusal.collection), "direction": .string(refusal.direction.rawValue),
                 "status": optional(refusal.status), "message": .string(refusal.message)]
            })
        }
        return shape
    }

    /// `collection list`: one collection with its effective policies.
    static func collection(_ descriptor: CollectionDescriptor) -> JSONValue {
        var shape: [String: JSONValue] = [
            "name": .string(descriptor.name),
            "updatePolicy": .string(UpdatePolicyArgument(descriptor.updatePolicy ?? .queueIfOffline).rawValue),
            "conflictPolicy": .string(descriptor.conflictPolicy.name),
            "localOnly": .bool(descriptor.isLocalOnly),
            "schemaVersion": .int(Int64(descriptor.schemaVersion)),
        ]
        // Only a scoped collection has the key, so an unscoped one prints as it always did.
        if let scope = descriptor.syncScope { shape["scope"] = .array(scope.terms.map(scopeTerm)) }
        // Likewise the read-access policy, only when it is not the default (keep).
        if descriptor.readAccessLoss != .keep { shape["readAccessLoss"] = .string(descriptor.readAccessLoss.rawValue) }
        // Likewise the migration steps, only when there are some.
        if !descriptor.migrations.isEmpty { shape["migrations"] = .array(descriptor.migrations.map { .string($0.description) }) }
        return .object(shape)
    }

    /// A sync scope's term as `{"field","op","value"}`.
    static func scopeTerm(_ term: ServerQuery.Term) -> JSONValue {
        ["field": .string(term.field), "op": .string(term.op.rawValue), "value": term.value]
    }

    /// A date as ISO 8601 text (UTC, milliseconds).
    static func timestamp(_ date: Date?) -> JSONValue {
        guard let date else { return .null }
        return .string(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }
}
