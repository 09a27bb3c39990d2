import ArgumentParser
import Foundation
import OfflineStore
import OfflineStoreCommandLine
import OfflineStoreInspector

extension OfflineStoreCommand {
    struct Inspect: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve a local web page over the store: objects, the queue, conflicts, failed entries.",
            discussion: """
                Listens on 127.0.0.1 only and prints {"url","store","allowWrites"} once it serves. \
                Read-only unless --allow-writes: then the page can resolve conflicts (field by field), \
                retry, roll back or discard failed entries, and flush, refresh or sync. It runs until \
                SIGINT or SIGTERM. See Docs/Inspector.md.
                """)

        @OptionGroup var global: GlobalOptions

        @Option(help: "The port on 127.0.0.1 (0 picks a free one).")
        var port: Int = 8484

        @Flag(help: "Let the page change the store: resolve, retry, rollback, discard, flush, refresh, sync.")
        var allowWrites = false

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0…65535, got \(port)") }
        }

        mutating func execute() async throws {
            let (port, allowWrites, path) = (self.port, self.allowWrites, global.path)
            try await StoreSession.with(global, server: .never) { session in
                let server = session.settings.map { settings in
                    Inspector.ServerDescription(
                        backend: settings.backend.rawValue, url: settings.server.absoluteString, bucket: settings.bucket,
                        writeMode: settings.writeMode.rawValue)
                }
                let inspector: Inspector
                do {
                    inspector = try Inspector(store: session.store, configuration: .init(
                        port: port, allowWrites: allowWrites, server: server))
                } catch let error as ServerError {
                    throw CLIError(error.description)
                }
                let stop = StopSignal()
                stop.installHandlers()
                inspector.start()
                Output.line(["url": .string(inspector.url.absoluteString), "store": .string(path),
                             "allowWrites": .bool(allowWrites)])
                Output.note("inspecting \(path) at \(inspector.url.absoluteString)"
                    + (allowWrites ? " (writes allowed)" : " (read-only)") + "; SIGINT or SIGTERM stops")
                await stop.wait()
                inspector.stop()
            }
        }
    }
}
