/// How an app edit meets the network: a pure decision from the write mode, the update
/// policy in force and the store's state (Docs/Policies.md, "Write modes"). Every route
/// that queues commits the edit locally first.
enum WriteRoute: Sendable, Hashable {
    /// Commit locally; nothing is sent now (deferred mode, a local-only collection, no
    /// backend or forced offline under queue-if-offline).
    case commit
    /// Commit locally, then signal the store's background sender; the call returns once
    /// the edit is durable (immediate mode under queue-if-offline).
    case commitThenSend
    /// Commit locally, push the queue and answer as the server did (`.awaitingServer`, and
    /// update-if-online in immediate mode).
    case commitThenAwaitServer
    /// Ping the server; commit (without sending) only when it answers (deferred mode under update-if-online).
    case pingThenCommit
    /// Throw `offline` and change nothing (update-if-online without a backend, or forced offline).
    case refuseOffline

    static func decide(mode: WriteMode, policy: UpdatePolicy, hasBackend: Bool, forcedOffline: Bool,
                       localOnly: Bool) -> WriteRoute {
        if localOnly { return .commit }
        guard hasBackend, !forcedOffline else { return policy == .updateIfOnline ? .refuseOffline : .commit }
        switch (mode, policy) {
        case (.deferred, .queueIfOffline): return .commit
        case (.deferred, .updateIfOnline): return .pingThenCommit
        case (.immediate, .queueIfOffline): return .commitThenSend
        case (.immediate, .updateIfOnline), (.awaitingServer, _): return .commitThenAwaitServer
        }
    }
}
