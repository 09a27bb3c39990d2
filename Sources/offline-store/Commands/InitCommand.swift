import ArgumentParser
import Foundation
import OfflineStore
import OfflineStoreCommandLine

extension OfflineStoreCommand {
    struct Init: StoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a store and record the server it syncs with.",
            discussion: """
                Records the server, backend, bucket, user and the NAME of the environment variable \
                that holds the secret (never the secret itself) in the store file. The secret is read \
                from that variable whenever a command talks to the server. Nothing is sent to the server.
                With --backend rest, --resources names a JSON file describing the server's resources \
                (routes, wrapping, keys, ids, paging; see Docs/CLI.md); its content is checked and \
                recorded in the store, and --bucket is not used.
                With --backend odata, --server is the service root (e.g. http://127.0.0.1:8080/odata) and \
                each collection is an entity set; --odata optionally names a JSON file of per-entity-set \
                settings (changedSince, changedSinceMarginSeconds, batchSize, sweepEvery; see Docs/CLI.md), \
                checked and recorded in the store like --resources.
                Prints the recorded settings.
                """)

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("The server's API base, e.g. http://127.0.0.1:8888/v1.", valueName: "url"))
        var server: String

        @Option(help: "The backend (wire protocol).")
        var backend: BackendArgument = .kinto

        @Option(help: ArgumentHelp("The Kinto bucket holding the collections.", valueName: "name"))
        var bucket: String = "offline-store"

        @Option(help: ArgumentHelp("With --backend rest: the JSON file describing the server's resources.", valueName: "file"))
        var resources: String?

        @Option(help: ArgumentHelp("With --backend odata: a JSON file of per-entity-set settings.", valueName: "file"))
        var odata: String?

        @Option(help: ArgumentHelp("The user for HTTP basic auth (with --password-env).", valueName: "name"))
        var user: String?

        @Option(help: ArgumentHelp("The environment variable holding the basic-auth password.", valueName: "var"))
        var passwordEnv: String?

        @Option(help: ArgumentHelp("The environment variable holding a bearer token.", valueName: "var"))
        var tokenEnv: String?

        @Flag(help: "Deferred write mode: edits stay local and queued until flush or sync (default: immediate).")
        var deferred = false

        @Flag(help: "Let every authenticated user write to the bucket when this store creates it.")
        var sharedBucket = false

        @Flag(help: "Rewrite the settings of a store that was already initialised (its data is kept).")
        var force = false

        func validate() throws {
            guard let url = URL(string: server), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                  let host = url.host, !host.isEmpty else {
                throw ValidationError("--server must be an http(s) URL with a host, got '\(server)'")
            }
            if url.user != nil || url.password != nil {
                throw ValidationError("--server must not carry credentials: use --user with --password-env, or --token-env")
            }
            switch backend {
            case .rest:
                guard resources != nil else { throw ValidationError("--backend rest needs --resources FILE") }
            case .kinto, .odata:
                guard resources == nil else { throw ValidationError("--resources goes with --backend rest") }
            }
            if odata != nil, backend != .odata { throw ValidationError("--odata goes with --backend odata") }
            guard Self.isKintoName(bucket) else {
                throw ValidationError("--bucket '\(bucket)' is not a valid Kinto name: ASCII letters, digits, '_' "
                    + "and '-', starting with a letter or digit")
            }
            if tokenEnv != nil, passwordEnv != nil || user != nil {
                throw ValidationError("--token-env cannot be combined with --user or --password-env")
            }
            if (user == nil) != (passwordEnv == nil) {
                throw ValidationError("--user and --password-env go together (basic auth)")
            }
            for name in [passwordEnv, tokenEnv].compactMap({ $0 }) where !Self.isVariableName(name) {
                throw ValidationError("'\(name)' is not an environment variable name (letters, digits and '_')")
            }
        }

        mutating func execute() async throws {
            let path = global.path
            guard let serverURL = URL(string: server) else { throw CLIError.usage("--server is not a URL: \(server)") }
            var settings = CLISettings(
                server: serverURL, backend: backend, bucket: bucket, user: user, passwordVariable: passwordEnv,
                tokenVariable: tokenEnv, writeMode: deferred ? .deferred : .immediate, sharedBucket: sharedBucket)
            if let resources {
                let url = URL(fileURLWithPath: resources)
                do {
                    let data = try Data(contentsOf: url)
                    let document = try JSONValue(parsing: data)
                    _ = try RESTResourceFile(json: document)   // checked now, not at the first sync
                    settings.resources = document
                } catch let error as OfflineStoreError {
                    throw CLIError.usage(error.message)
                } catch let error as JSONError {
                    throw CLIError.usage("--resources \(resources) is not valid JSON: \(error)")
                } catch {
                    throw CLIError.usage("cannot read --resources \(resources): \(error.localizedDescription)")
                }
            }
            if backend == .odata { settings.odata = try Self.readODataSettings(odata) }
            let existed = FileManager.default.fileExists(atPath: path)
            let store = try ObjectStore(path: path)
            defer { try? store.close() }
            if existed, !force, try CLISettings.load(from: store) != nil {
                throw CLIError("the store at \(path) is already initialised; add --force to replace its settings")
            }
            try settings.save(to: store)
            var printed = settings.json
            printed["store"] = .string(path)
            Output.line(printed)
        }

        /// The `--odata` file's document, checked now rather than at the first sync (`{}` without the option).
        ///
        /// - Throws: ``CLIError`` (exit 64) naming the file and what is wrong in it.
        static func readODataSettings(_ file: String?) throws -> JSONValue {
            guard let file else { return [:] }
            let document: JSONValue
            do { document = try JSONValue(parsing: try Data(contentsOf: URL(fileURLWithPath: file))) } catch let error as JSONError {
                throw CLIError.usage("--odata \(file) is not valid JSON: \(error)")
            } catch {
                throw CLIError.usage("cannot read --odata \(file): \(error.localizedDescription)")
            }
            _ = try ODataSettingsFile.settings(document, source: "--odata \(file)")
            return document
        }

        static func isKintoName(_ name: String) -> Bool {
            guard let first = name.unicodeScalars.first, first.isASCIIAlphanumeric else { return false }
            return name.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "_" || $0 == "-" }
        }

        static func isVariableName(_ name: String) -> Bool {
            guard let first = name.unicodeScalars.first, first == "_" || (first.isASCIIAlphanumeric && !first.isASCIIDigit)
            else { return false }
            return name.unicodeScalars.allSatisfy { $0 == "_" || $0.isASCIIAlphanumeric }
        }
    }
}

extension Unicode.Scalar {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    var isASCIIAlphanumeric: Bool { isASCIIDigit || ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
