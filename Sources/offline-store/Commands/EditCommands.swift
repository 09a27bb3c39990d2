import ArgumentParser
import OfflineStore
import OfflineStoreCommandLine

/// Edits follow the store's write mode (immediate: sent at once when the server answers;
/// deferred: queued) and the collection's update policy.
extension OfflineStoreCommand {
    struct Create: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an object; prints it with its id.",
            discussion: "The id is --id, else the JSON's \"id\", else a new lowercase UUID.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The collection.") var collection: String
        @Argument(help: ArgumentHelp("The object, a JSON object.", valueName: "json")) var json: String
        @Option(help: "The object's id.") var id: String?

        mutating func execute() async throws {
            var object = try JSONArgument.object(json)
            if let id {
                if let given = object["id"], given != .null, given != .string(id) {
                    throw CLIError.usage("the JSON's \"id\" (\(given)) differs from --id \(id)")
                }
                object["id"] = .string(id)
            }
            let value = object
            try await StoreSession.with(global, server: .edit(collection: collection)) { session in
                let created = try await session.collection(collection).create(value)
                Output.line(created)
                if let id = created["id"]?.stringValue { try session.noteIfQueued(collection, id: id) }
            }
        }
    }

    struct Update: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace an object (or patch its fields with --merge); prints it.",
            discussion: "With --merge, the JSON's fields are set and a null field is removed; other fields stay.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var object: ObjectArguments
        @Argument(help: ArgumentHelp("The new object (or the fields to set), a JSON object.", valueName: "json"))
        var json: String
        @Flag(help: "Patch the given fields instead of replacing the object.") var merge = false

        mutating func execute() async throws {
            let value = try JSONArgument.object(json)
            let (collection, id, merge) = (object.collection, object.id, self.merge)
            try await StoreSession.with(global, server: .edit(collection: collection)) { session in
                let objects = try session.collection(collection)
                let updated = merge
                    ? try await objects.patch(id, value.objectValue ?? [:])
                    : try await objects.replace(id, with: value)
                Output.line(updated)
                try session.noteIfQueued(collection, id: id)
            }
        }
    }

    struct Delete: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an object; prints nothing.",
            discussion: "Locally the object is a tombstone until the server has the delete.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var object: ObjectArguments

        mutating func execute() async throws {
            let (collection, id) = (object.collection, object.id)
            try await StoreSession.with(global, server: .edit(collection: collection)) { session in
                try await session.collection(collection).destroy(id)
                try session.noteIfQueued(collection, id: id)
            }
        }
    }
}

extension StoreSession {
    /// In immediate mode an edit still queued after the call was not sent because the
    /// server could not be reached: say so on stderr (the command still succeeds).
    func noteIfQueued(_ collection: String, id: String) throws {
        guard settings?.writeMode == .immediate, try !store.descriptor(of: collection).isLocalOnly,
              try store.collection(collection).isChanged(id) else { return }
        Output.note("the server cannot be reached; the edit of \(collection)/\(id) is queued")
    }
}
