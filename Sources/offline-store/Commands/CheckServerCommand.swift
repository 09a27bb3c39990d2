import ArgumentParser
import Foundation
import OfflineStore
import OfflineStoreCommandLine
import OfflineStoreServerCheck

extension OfflineStoreCommand {
    /// `check-server`: `RESTBackend.checkServer` on the store's REST server, or
    /// `ODataBackend.checkServer` on its OData service.
    struct CheckServer: StoreCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-server",
            abstract: "Check that a REST server or an OData service gives the guarantees sync relies on.",
            discussion: """
                For each resource (or the COLLECTIONs named), creates scratch records, probes the \
                server, and removes them: is a stale update or delete refused (409/412), does a pull \
                since a cursor list only later changes, does a deletion show, does a pull from the \
                beginning end without repeats, does a replayed create answer the first record. Prints \
                one line per resource and guarantee: {"collection","guarantee","outcome","reliedOn",\
                "detail","fix"}; outcome is holds, fails or notChecked. Exit 2 when a guarantee the \
                resources file relies on fails; 0 otherwise (a guarantee it does not rely on, such as \
                under "concurrency": "none", may fail: a warning).
                On an OData service, for each entity set named (default: the store's synced collections), \
                creates scratch entities and removes them, and reports staleUpdate (412 on a stale If-Match), \
                ifMatchRequired (428), changeTracking (deltaLink, @removed), paging, batch, atomicityGroups, \
                resentCreate (409 or not), resentDelete (404 or 412) and deletions (what finding them costs); \
                each row adds "store": what the store does with it.
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The collections to check (default: every resource of the store's file).") var collections: [String] = []
        @Option(name: .customLong("sample"), parsing: .singleValue,
                help: ArgumentHelp("A scratch record the server accepts, e.g. tasks='{\"title\":\"check\"}' (else the first listed record's fields are copied).",
                                   valueName: "collection=json"))
        var samples: [String] = []
        @Flag(help: "Print an aligned text table instead of JSON lines.") var text = false

        mutating func execute() async throws {
            var given: [String: JSONValue] = [:]
            for sample in samples {
                guard let equals = sample.firstIndex(of: "="), equals != sample.startIndex else {
                    throw CLIError.usage("--sample expects COLLECTION=JSON, got \(sample)")
                }
                given[String(sample[..<equals])] = try JSONArgument.object(String(sample[sample.index(after: equals)...]),
                                                                           name: "--sample \(sample[..<equals])")
            }
            let (names, samples, asText) = (collections, given, text)
            if try await Self.checkOData(global, names: names, samples: samples, asText: asText) { return }
            let check = try await StoreSession.with(global, server: .required) { session -> RESTServerCheck in
                guard let settings = session.settings, settings.backend == .rest,
                      let backend = try settings.makeBackend(environment: ProcessInfo.processInfo.environment) as? RESTBackend else {
                    throw CLIError("check-server checks a REST server; this store syncs with Kinto, whose guarantees are built in")
                }
                for name in names where backend.configuration.resources[name] == nil {
                    throw CLIError("the resources file has no resource \"\(name)\"")
                }
                return try await backend.checkServer(collections: names.isEmpty ? nil : names, samples: samples)
            }
            if asText { Self.printTable(check) } else { for row in check.rows { Output.line(Self.shape(row)) } }
            if !check.holds { throw ExitCode(ExitStatus.guaranteeMissing) }
        }

        /// Runs the OData check when the store syncs with an OData service; false otherwise.
        ///
        /// - Throws: ``CLIError`` when no entity set is named or added; exit 2 when a guarantee
        ///   the store relies on fails; the library's errors.
        static func checkOData(_ global: GlobalOptions, names: [String], samples: [String: JSONValue],
                               asText: Bool) async throws -> Bool {
            let check = try await StoreSession.with(global, server: .required) { session -> ODataServerCheck? in
                guard let settings = session.settings, settings.backend == .odata else { return nil }
                let sets = names.isEmpty ? session.store.collections().filter { !$0.isLocalOnly }.map(\.name) : names
                guard !sets.isEmpty else {
                    throw CLIError("name the entity sets to check, or add them with `collection add` first")
                }
                let backend = ODataBackend(configuration: try settings.odataConfiguration(environment: ProcessInfo.processInfo.environment))
                return try await backend.checkServer(entitySets: sets, samples: samples)
            }
            guard let check else { return false }
            if asText { FileHandle.standardOutput.write(Data(check.table.utf8)) } else { for row in check.rows { Output.line(row.json) } }
            if !check.holds { throw ExitCode(ExitStatus.guaranteeMissing) }
            return true
        }

        /// One row as a JSON line.
        static func shape(_ row: RESTServerCheck.Row) -> JSONValue {
            ["collection": .string(row.collection), "guarantee": .string(row.guarantee.rawValue),
             "outcome": .string(row.outcome.rawValue), "reliedOn": .bool(row.reliedOn), "detail": .string(row.detail),
             "fix": Shape.optional(row.fix)]
        }

        /// The rows as an aligned table, each fix under its row.
        static func printTable(_ check: RESTServerCheck) {
            let width = (check.rows.map { $0.collection.count + $0.guarantee.rawValue.count + 1 }.max() ?? 0) + 2
            var lines: [String] = []
            for row in check.rows {
                let name = "\(row.collection).\(row.guarantee.rawValue)"
                let mark = switch (row.outcome, row.reliedOn) {
                case (.holds, _): "holds"
                case (.fails, true): "MISSING"
                case (.fails, false): "fails (not relied on)"
                case (.notChecked, _): "not checked"
                }
                lines.append(name.padding(toLength: width, withPad: " ", startingAt: 0) + mark + ": " + row.detail)
                if let fix = row.fix { lines.append(String(repeating: " ", count: width) + "fix: " + fix) }
            }
            FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }
}
