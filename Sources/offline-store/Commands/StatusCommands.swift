import ArgumentParser
import OfflineStore

extension OfflineStoreCommand {
    struct Status: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Summarise the store.",
            discussion: """
                Prints {"objects","pending","conflicts","failed","lastSync","store","server","bucket",\
                "writeMode"}: objects counts live objects in every collection, lastSync is the end of \
                the last sync or refresh (ISO 8601, UTC) or null.
                """)

        @OptionGroup var global: GlobalOptions

        mutating func execute() async throws {
            let path = global.path
            try await StoreSession.with(global, server: .never) { session in try Self.show(session, path: path) }
        }

        /// Prints the status of an open store.
        static func show(_ session: StoreSession, path: String) throws {
            let store = session.store
            let left = try SyncInvocation.leftCounts(store)
            let objects = try store.collections().reduce(0) { $0 + (try store.collection($1.name).count()) }
            Output.line([
                "objects": .int(Int64(objects)), "pending": .int(Int64(left.pending)),
                "conflicts": .int(Int64(left.conflicts)), "failed": .int(Int64(left.failed)),
                "lastSync": Shape.timestamp(try store.lastSync()), "store": .string(path),
                "server": Shape.optional(session.settings?.server.absoluteString),
                "bucket": Shape.optional(session.settings?.bucket),
                "writeMode": .string((session.settings?.writeMode ?? store.configuration.writeMode).rawValue),
            ])
        }
    }

    struct Reset: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Client reset (--client) or full reset (--full).",
            discussion: """
                --client drops the synced objects and the pull cursors and keeps every unsent edit, \
                conflict and failed entry (and local-only collections): the next refresh or sync \
                reads everything again. --full deletes every object, the whole queue (unsent edits \
                are lost) and the cursors. Both keep the collections and the server settings. \
                Prints the status afterwards.
                """)

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Forget the server's data, keep unsent edits.") var client = false
        @Flag(help: "Delete all data and unsent edits.") var full = false

        func validate() throws {
            if client == full { throw ValidationError("give exactly one of --client and --full") }
        }

        mutating func execute() async throws {
            let (full, path) = (self.full, global.path)
            try await StoreSession.with(global, server: .never) { session in
                if full { try await session.store.resetAll() } else { try await session.store.resetSyncState() }
                try Status.show(session, path: path)
            }
        }
    }
}
