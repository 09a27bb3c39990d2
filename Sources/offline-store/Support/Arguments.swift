import ArgumentParser
import OfflineStore

/// `--update-policy queue-if-offline|update-if-online`.
enum UpdatePolicyArgument: String, ExpressibleByArgument, CaseIterable {
    case queueIfOffline = "queue-if-offline"
    case updateIfOnline = "update-if-online"

    init(_ policy: UpdatePolicy) {
        self = policy == .queueIfOffline ? .queueIfOffline : .updateIfOnline
    }

    var policy: UpdatePolicy { self == .queueIfOffline ? .queueIfOffline : .updateIfOnline }
}

/// `--conflict-policy preserve|client-wins|server-wins|merge` (the library's stored names).
enum ConflictPolicyArgument: String, ExpressibleByArgument, CaseIterable {
    case preserve, clientWins = "client-wins", serverWins = "server-wins", merge

    var policy: ConflictPolicy { ConflictPolicy(name: rawValue) ?? .preserveConflict }
}

/// `collection add --read-access-loss keep|purge`.
enum ReadAccessLossArgument: String, ExpressibleByArgument, CaseIterable {
    case keep, purge

    var policy: ReadAccessLossPolicy { ReadAccessLossPolicy(rawValue: rawValue) ?? .keep }
}

/// `resolve --keep local|server`.
enum KeepArgument: String, ExpressibleByArgument, CaseIterable {
    case local, server
}

/// `--backend kinto` (the only backend so far).
enum BackendArgument: String, ExpressibleByArgument, CaseIterable {
    /// Kinto's HTTP API (buckets, collections, records, batch).
    case kinto
    /// A Rails-style REST API described by a resources file (`init --resources`).
    case rest
}

extension SyncState: ExpressibleByArgument {}

/// `COLLECTION ID`: the object a command acts on.
struct ObjectArguments: ParsableArguments {
    @Argument(help: "The collection.") var collection: String
    @Argument(help: "The object's id.") var id: String
}

/// JSON given on the command line.
enum JSONArgument {
    /// Parses a JSON object argument.
    ///
    /// - Throws: ``CLIError`` (exit 64) naming the byte offset of a syntax error, or the
    ///   type found when the value is not an object.
    static func object(_ text: String, name: String = "JSON argument") throws -> JSONValue {
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch let error as JSONError {
            throw CLIError.usage("\(name) is \(error)")
        }
        guard value.objectValue != nil else {
            throw CLIError.usage("\(name) must be a JSON object, got \(value.typeName)")
        }
        return value
    }
}

/// `FIELD=VALUE` on the command line: VALUE is read as JSON when it parses, else as a string.
struct FieldValue {
    var field: String
    var value: JSONValue

    /// Nil when `text` has no `=` or nothing before it.
    init?(_ text: String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
        field = String(text[..<equals])
        let raw = String(text[text.index(after: equals)...])
        value = (try? JSONValue(parsing: raw)) ?? .string(raw)
    }
}

/// `--where FIELD=VALUE` (``FieldValue``).
struct WhereClause: ExpressibleByArgument {
    var field: String
    var value: JSONValue

    init?(argument: String) {
        guard let pair = FieldValue(argument) else { return nil }
        (field, value) = (pair.field, pair.value)
    }

    var condition: Condition { .equal(field, value) }
}
