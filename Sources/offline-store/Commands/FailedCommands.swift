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
        @OptionGroup var object: ObjectArguments

        mutating func execute() async throws {
            try await FailedEntryAction.perform(global, object, ObjectStore.retry(_:id:))
        }
    }

    struct Rollback: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give up a rejected update or delete: restore the server's copy.",
            discussion: "Every queued edit of the object is dropped. Prints the object.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var object: ObjectArguments

        mutating func execute() async throws {
            try await FailedEntryAction.perform(global, object, ObjectStore.rollback(_:id:))
        }
    }

    struct Discard: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give up a rejected create: remove the object locally.",
            discussion: "Every queued edit of the object is dropped. Prints nothing.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var object: ObjectArguments

        mutating func execute() async throws {
            try await FailedEntryAction.perform(global, object, ObjectStore.discard(_:id:))
        }
    }
}

/// Runs a failed-entry action and prints the object afterwards, if it is still there.
enum FailedEntryAction {
    static func perform(_ options: GlobalOptions, _ object: ObjectArguments,
                        _ action: (ObjectStore) -> (String, String) throws -> Void) async throws {
        try await StoreSession.with(options, server: .never) { session in
            let objects = try session.collection(object.collection)
            try action(session.store)(object.collection, object.id)
            if let value = try objects.find(object.id) { Output.line(value) }
        }
    }
}
