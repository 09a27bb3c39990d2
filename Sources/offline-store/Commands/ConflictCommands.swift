import ArgumentParser
import OfflineStore
import OfflineStoreCommandLine

extension OfflineStoreCommand {
    struct Conflicts: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "List conflicted objects with their base, local and server copies.",
            discussion: """
                Prints a JSON array of {"collection","id","base","local","server","serverVersion"}; \
                a null local copy is a local delete, a null server copy a delete on the server.
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Only this collection's conflicts.") var collection: String?

        mutating func execute() async throws {
            let collection = self.collection
            try await StoreSession.with(global, server: .never) { session in
                if let collection { _ = try session.collection(collection) }
                Output.line(.array(try session.store.conflicts(in: collection).map(Shape.conflict)))
            }
        }
    }

    struct Resolve: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Resolve a conflict; the result is queued for the next flush or sync.",
            discussion: """
                --keep local resends the local copy on top of the server's version, --keep server \
                drops the local edit, --with JSON queues that object as an update on the server's \
                version. Prints the object afterwards (nothing when it is gone). Exit 3 when there \
                is no such object, 1 when it is not conflicted.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var object: ObjectArguments
        @Option(help: "Which copy wins.") var keep: KeepArgument?
        @Option(name: .customLong("with"), help: ArgumentHelp("A merged object to send, a JSON object.", valueName: "json"))
        var merged: String?

        func validate() throws {
            if (keep == nil) == (merged == nil) { throw ValidationError("give exactly one of --keep local|server and --with JSON") }
        }

        mutating func execute() async throws {
            let resolution: Resolution = switch keep {
            case .local?: .keepLocal
            case .server?: .keepServer
            case nil: .merged(try JSONArgument.object(merged ?? "", name: "--with"))
            }
            let (collection, id) = (object.collection, object.id)
            try await StoreSession.with(global, server: .never) { session in
                let objects = try session.collection(collection)
                try session.store.resolve(collection, id: id, with: resolution)
                if let value = try objects.find(id) { Output.line(value) }
            }
        }
    }
}
