import ArgumentParser
import OfflineStore
import OfflineStoreCommandLine

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

/// `--backend kinto|rest|odata`.
enum BackendArgument: String, ExpressibleByArgument, CaseIterable {
    /// Kinto's HTTP API (buckets, collections, records, batch).
    case kinto
    /// A Rails-style REST API described by a resources file (`init --resources`).
    case rest
    /// An OData v4 service: each entity set a collection (`init --odata` for optional settings).
    case odata
}

extension SyncState: ExpressibleByArgument {}

/// `COLLECTION ID`: the object a command acts on.
struct ObjectArguments: ParsableArguments {
    @Argument(help: "The collection.") var collection: String
    @Argument(help: "The object's id.") var id: String
}

/// `--where FIELD=VALUE`, parsed by ``WhereClause/init(argument:)``.
extension WhereClause: ExpressibleByArgument {}
