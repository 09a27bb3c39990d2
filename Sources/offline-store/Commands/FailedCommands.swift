import ArgumentParser
import OfflineStore

/// Edits the server rejected (4xx other than conflicts and auth) wait as failed entries
/// until one of these commands acts on them.
extension OfflineStoreCommand {
    struct Failed: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the edits the server rejected.",
            discussion: #"Prints a JSON array of {"seq","collection","id","kind","status","body","attempts","lastError"}."#)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "Only this collection's failed entries.") var collection: String?

        mutating func execute() async throws {
            let collection = self.collection
            try await StoreSession.with(global, server: .never) { session in
                if let collection { _ = try session.collection(collection) }
                Output.line(.array(try session.store.failedEntries(collection: collection).map(Shape.failedEntry)))
            }
        }
    }

    struct Retry: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a rejected edit again with the next flush.",
            discussion: """
                The failed entry becomes pending and the next flush sends the object's current local \
                copy (fix it first with `update`). Prints the object.
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The collection.") var collection: String
        @Argument(help: "The object's id.") var id: String

        mutating func execute() async throws {
            try await FailedEntryAction.perform(global, collection, id) { try $0.retry(collection, id: id) }
        }
    }

    struct Rollback: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give up a rejected update or delete: restore the server's copy.",
            discussion: "Every queued edit of the object is dropped. Prints the object.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The collection.") var collection: String
        @Argument(help: "The object's id.") var id: String

        mutating func execute() async throws {
            try await FailedEntryAction.perform(global, collection, id) { try $0.rollback(collection, id: id) }
        }
    }

    struct Discard: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give up a rejected create: remove the object locally.",
            discussion: "Every queued edit of the object is dropped. Prints nothing.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The collection.") var collection: String
        @Argument(help: "The object's id.") var id: String

        mutating func execute() async throws {
            try await FailedEntryAction.perform(global, collection, id) { try $0.discard(collection, id: id) }
        }
    }
}

/// Runs a failed-entry action and prints the object afterwards, if it is still there.
enum FailedEntryAction {
    static func perform(_ options: GlobalOptions, _ collection: String, _ id: String,
                        _ action: (ObjectStore) throws -> Void) async throws {
        try await StoreSession.with(options, server: .never) { session in
            let objects = try session.collection(collection)
            try action(session.store)
            if let value = try objects.find(id) { Output.line(value) }
        }
    }
}
