import ArgumentParser
import OfflineStore
import OfflineStoreCommandLine

/// Reads never touch the network.
extension OfflineStoreCommand {
    struct Get: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an object as the app sees it (the local copy, else the server's).",
            discussion: """
                With --all: {"collection","id","state","local","deleted","persistent","base","baseVersion",\
                "serverVersion"}, where a missing copy is null; a local delete is shown too.
                Exit 3 when there is no such object.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var object: ObjectArguments
        @Flag(help: "Print every copy and the sync state.") var all = false

        mutating func execute() async throws {
            let (collection, id, all) = (object.collection, object.id, self.all)
            try await StoreSession.with(global, server: .never) { session in
                let object = try session.collection(collection).object(id)
                if all, let object {
                    Output.line(Shape.object(object))
                } else if let value = object?.value {
                    Output.line(value)
                } else {
                    throw OfflineStoreError(.notFound, "object \(collection)/\(id) does not exist")
                }
            }
        }
    }

    struct List: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a collection's objects as a JSON array, by id.",
            discussion: """
                --where FIELD=VALUE keeps objects whose field equals VALUE (read as JSON when it \
                parses, else as a string; FIELD may be a dotted path); several --where must all hold. \
                With --state deleted, locally deleted objects are listed with their server copies.
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The collection.") var collection: String
        @Option(name: .customLong("where"),
                help: ArgumentHelp("Keep objects whose FIELD equals VALUE (repeatable).", valueName: "field=value"))
        var conditions: [WhereClause] = []
        @Option(help: "Keep objects in this sync state.") var state: SyncState?
        @Option(help: "At most this many objects.") var limit: Int?

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        }

        mutating func execute() async throws {
            let condition: Condition? = conditions.isEmpty ? nil : .and(conditions.map(\.condition))
            let (collection, state, limit) = (self.collection, self.state, self.limit)
            try await StoreSession.with(global, server: .never) { session in
                let objects = try session.collection(collection).objects(where: condition, state: state, limit: limit)
                Output.line(.array(objects.compactMap { $0.value ?? $0.persistent }))
            }
        }
    }

    struct Queue: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the queue of unsent edits in FIFO order.",
            discussion: #"Each entry: {"seq","collection","id","kind","state","attempts","lastError","status"}."#)

        @OptionGroup var global: GlobalOptions

        mutating func execute() async throws {
            try await StoreSession.with(global, server: .never) { session in
                Output.line(.array(try session.store.queueEntries().map(Shape.entry)))
            }
        }
    }
}
