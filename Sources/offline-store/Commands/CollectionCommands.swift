import ArgumentParser
import Foundation
import OfflineStore
import OfflineStoreCommandLine

extension OfflineStoreCommand {
    struct CollectionGroup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "collection",
            abstract: "Add and list collections.",
            subcommands: [Add.self, List.self])
    }
}

extension OfflineStoreCommand.CollectionGroup {
    struct Add: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a collection, or change an existing one's policies.",
            discussion: """
                Unset policies take the defaults: queue-if-offline, preserve. --scope keeps only the \
                server's records matching every given term in sync (FIELD=VALUE, !=, <, >, <=, >=; VALUE \
                is JSON when it parses, else text); records that leave the scope are removed locally \
                unless they have pending edits. Without --scope an existing collection keeps its scope; \
                --clear-scope syncs the whole collection again. --read-access-loss says what a sync does \
                with the local copies once the server stops letting the user read the collection: keep \
                them (the default) or purge the synced ones; without it an existing collection keeps its \
                choice. --schema-version with --rename OLD:NEW, --add-field FIELD=VALUE and \
                --remove-field FIELD evolves the collection's records: the stored copies and queued edits \
                are migrated now, and records pulled later in an older shape by any process (Docs/Models.md, \
                "Evolving a model"). Prints the collection as `collection list` shows it.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The collection's name (on Kinto: letters, digits, '_' and '-'; on OData: the entity set's).")
        var name: String

        @Option(help: "What an edit does when the server cannot be reached.")
        var updatePolicy: UpdatePolicyArgument?

        @Option(help: "How a conflict with the server's version is settled.")
        var conflictPolicy: ConflictPolicyArgument = .preserve

        @Flag(help: "Never sync this collection: its objects stay on this machine.")
        var localOnly = false

        @Option(name: .customLong("scope"), parsing: .singleValue,
                help: "Keep only the server's records matching FIELD=VALUE in sync (also !=, <, >, <=, >=); repeat for AND.")
        var scope: [String] = []

        @Flag(help: "Keep the whole collection in sync again (forget its scope).")
        var clearScope = false

        @Option(help: "When the server stops letting the user read the collection: keep the local copies, or purge the synced ones.")
        var readAccessLoss: ReadAccessLossArgument?

        @Option(help: "The version of the shape of the collection's records; a higher one than stored adds the steps below.")
        var schemaVersion: Int?

        @Option(name: .customLong("rename"), parsing: .singleValue, help: "In --schema-version, rename field OLD to NEW (OLD:NEW); repeat for more.")
        var renames: [String] = []

        @Option(name: .customLong("add-field"), parsing: .singleValue,
                help: "In --schema-version, add FIELD with a default for records without it (FIELD=VALUE, VALUE JSON when it parses, else text).")
        var addedFields: [String] = []

        @Option(name: .customLong("remove-field"), parsing: .singleValue, help: "In --schema-version, remove FIELD from every record.")
        var removedFields: [String] = []

        /// A synced collection must exist on the server's side: a valid Kinto name, a
        /// resource in the REST resources file, or an entity set of the OData service
        /// (checked against its `$metadata` when the service answers; else added with a note).
        static func checkSynced(_ name: String, settings: CLISettings?) async throws {
            if let settings, settings.backend == .odata {
                let verdict = try await ODataEntitySetCheck.check(name, settings: settings,
                                                                  environment: ProcessInfo.processInfo.environment)
                if case .unchecked(let reason) = verdict {
                    Output.note("entity set '\(name)' was not checked against the service's $metadata (\(reason)); added as given")
                }
            } else if settings?.backend == .rest {
                let known = settings?.resources?["resources"]?.objectValue?.keys.sorted() ?? []
                guard known.contains(name) else {
                    throw CLIError("collection '\(name)' has no resource in the store's REST resources file "
                        + "(it has: \(known.joined(separator: ", "))); add it there and run `init --force`, or use --local-only")
                }
            } else if !OfflineStoreCommand.Init.isKintoName(name) {
                throw CLIError("collection name '\(name)' is not valid on Kinto: ASCII letters, digits, '_' and '-', "
                    + "starting with a letter or digit (or add it with --local-only)")
            }
        }

        mutating func execute() async throws {
            var descriptor = CollectionDescriptor(
                name, localOnly: localOnly, updatePolicy: updatePolicy?.policy, conflictPolicy: conflictPolicy.policy)
            if clearScope, !scope.isEmpty { throw CLIError("--scope and --clear-scope exclude each other", exitCode: ExitStatus.usage) }
            let terms = try scope.map(ScopeArgument.parse)
            let steps = try MigrationArgument.steps(renames: renames, added: addedFields, removed: removedFields,
                                                    version: schemaVersion ?? 1)
            let (name, localOnly, clearScope, readAccessLoss, schemaVersion) = (name, localOnly, clearScope, readAccessLoss, schemaVersion)
            try await StoreSession.with(global, server: .never) { session in
                if !localOnly { try await Self.checkSynced(name, settings: session.settings) }
                let existing = try? session.store.descriptor(of: name)
                // No scope option: an existing collection keeps its scope.
                if !terms.isEmpty { descriptor.syncScope = ServerQuery(terms) }
                else if !clearScope { descriptor.syncScope = existing?.syncScope }
                // An existing collection keeps its schema version and migration steps unless a
                // higher version is given, and its read-access policy unless one is given.
                (descriptor.schemaVersion, descriptor.migrations) = try MigrationArgument.chain(
                    existing: existing.map { ($0.schemaVersion, $0.migrations) }, version: schemaVersion, steps: steps)
                descriptor.readAccessLoss = readAccessLoss?.policy ?? existing?.readAccessLoss ?? .keep
                try session.store.register(descriptor)
                Output.line(Shape.collection(try session.store.descriptor(of: descriptor.name)))
            }
        }
    }

    struct List: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the collections.",
            discussion: #"Prints a JSON array of {"name","updatePolicy","conflictPolicy","localOnly","schemaVersion"} (and "scope" when set, "readAccessLoss" when purge), sorted by name."#)

        @OptionGroup var global: GlobalOptions

        mutating func execute() async throws {
            try await StoreSession.with(global, server: .never) { session in
                Output.line(.array(session.store.collections().map(Shape.collection)))
            }
        }
    }
}
