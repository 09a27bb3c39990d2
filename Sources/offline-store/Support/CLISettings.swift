import Foundation
import OfflineStore
import OfflineStoreCommandLine

/// The server settings `init` records in the store file (app metadata), read by every
/// later command. Holds the *name* of the environment variable with the secret, never the secret.
struct CLISettings: Equatable {
    /// The app metadata key the settings are stored under (one JSON document).
    static let metadataKey = "offline-store.settings"

    var server: URL
    var backend: BackendArgument = .kinto
    var bucket: String
    var user: String?
    var passwordVariable: String?
    var tokenVariable: String?
    var writeMode: WriteMode
    var sharedBucket: Bool
    /// With the REST backend: the resources document `init --resources` read (kept in the
    /// store, so the store does not depend on the file afterwards).
    var resources: JSONValue?
    /// With the OData backend: the per-entity-set settings document `init --odata` read
    /// (`{}` without the option), kept in the store like REST's resources.
    var odata: JSONValue?

    /// The settings as stored and as `init` prints them. `odata` is there only for the OData
    /// backend, so the other backends' lines stay as they were.
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "server": .string(server.absoluteString), "backend": .string(backend.rawValue), "bucket": .string(bucket),
            "user": Shape.optional(user), "passwordEnv": Shape.optional(passwordVariable),
            "tokenEnv": Shape.optional(tokenVariable), "writeMode": .string(writeMode.rawValue),
            "sharedBucket": .bool(sharedBucket), "resources": resources ?? .null,
        ]
        if backend == .odata { members["odata"] = odata ?? [:] }
        return .object(members)
    }

}

extension CLISettings {
    /// Reads stored settings.
    ///
    /// - Throws: ``CLIError`` when the stored text is not settings this version understands.
    init(json: JSONValue) throws {
        guard let server = json["server"]?.stringValue.flatMap(URL.init(string:)),
              let backend = json["backend"]?.stringValue.flatMap(BackendArgument.init(rawValue:)),
              let bucket = json["bucket"]?.stringValue,
              let writeMode = json["writeMode"]?.stringValue.flatMap(WriteMode.init(rawValue:))
        else { throw CLIError("the store's settings cannot be read; run `offline-store init --force` again") }
        self.server = server
        self.backend = backend
        self.bucket = bucket
        self.user = json["user"]?.stringValue
        self.passwordVariable = json["passwordEnv"]?.stringValue
        self.tokenVariable = json["tokenEnv"]?.stringValue
        self.writeMode = writeMode
        self.sharedBucket = json["sharedBucket"]?.boolValue ?? false
        self.resources = json["resources"].flatMap { $0 == .null ? nil : $0 }
        if backend == .rest, resources == nil {
            throw CLIError("the store's REST settings have no resources; run `offline-store init --force` again")
        }
        self.odata = json["odata"].flatMap { $0 == .null ? nil : $0 }
    }

    /// The settings stored in a store, or nil when `init` never ran on it.
    static func load(from store: ObjectStore) throws -> CLISettings? {
        guard let text = try store.metadata(forKey: metadataKey) else { return nil }
        guard let json = try? JSONValue(parsing: text) else {
            throw CLIError("the store's settings are not valid JSON; run `offline-store init --force` again")
        }
        return try CLISettings(json: json)
    }

    func save(to store: ObjectStore) throws {
        try store.setMetadata(json.serialized(), forKey: Self.metadataKey)
    }

    /// The environment variable holding the secret, if the settings name one.
    var secretVariable: String? { passwordVariable ?? tokenVariable }

    /// Why the secret cannot be read now, or nil when it can (or none is needed).
    func missingSecret(in environment: [String: String]) -> String? {
        guard let name = secretVariable else { return nil }
        if let value = environment[name], !value.isEmpty { return nil }
        let what = passwordVariable != nil ? "the password of user \(user ?? "")" : "the bearer token"
        return "the environment variable \(name) (\(what), named at init) is not set"
    }

    /// The credentials from the environment. A missing secret becomes a header provider
    /// that fails with `unauthorized`, so a request that needs it stops with exit 6.
    func auth(environment: [String: String]) -> KintoAuth {
        if let problem = missingSecret(in: environment) {
            return .header { throw OfflineStoreError(.unauthorized, problem) }
        }
        if let name = passwordVariable, let secret = environment[name] {
            return .basic(user: user ?? "", password: secret)
        }
        if let name = tokenVariable, let secret = environment[name] {
            return .bearer(secret)
        }
        return .none
    }

    /// The backend these settings describe, with the secret read from the environment.
    ///
    /// - Throws: ``CLIError`` when the recorded REST resources no longer parse.
    func makeBackend(environment: [String: String]) throws -> any Backend {
        switch backend {
        case .kinto:
            return KintoBackend(configuration: .init(
                serverURL: server, bucket: bucket, auth: auth(environment: environment),
                shareBucketWithAuthenticatedUsers: sharedBucket))
        case .rest:
            let file: RESTResourceFile
            do { file = try RESTResourceFile(json: resources ?? .null) } catch let error as OfflineStoreError {
                throw CLIError("the store's REST resources cannot be read (\(error.message)); run `offline-store init --force` again")
            }
            return RESTBackend(configuration: file.configuration(baseURL: server, headers: httpHeaders(environment: environment)))
        case .odata:
            return ODataBackend(configuration: try odataConfiguration(environment: environment))
        }
    }

    /// The OData backend's configuration: the service root, the `Authorization` header and
    /// the per-entity-set settings recorded by `init --odata`.
    ///
    /// - Throws: ``CLIError`` when the recorded settings no longer parse.
    func odataConfiguration(environment: [String: String]) throws -> ODataBackend.Configuration {
        let sets: [String: ODataEntitySetSettings]
        do { sets = try ODataSettingsFile.settings(odata ?? [:], source: "the store's OData settings") } catch let error as CLIError {
            throw CLIError("\(error.message); run `offline-store init --force` again")
        }
        return ODataBackend.Configuration(serviceRoot: server, headers: httpHeaders(environment: environment), entitySets: sets)
    }

    /// The `Authorization` header of a REST or OData server, from the secret in the environment;
    /// none when the secret is missing (the server's 401 then ends the command with exit 6).
    func httpHeaders(environment: [String: String]) -> [String: String] {
        guard missingSecret(in: environment) == nil else { return [:] }
        if let name = passwordVariable, let secret = environment[name] {
            return ["Authorization": "Basic " + Data("\(user ?? ""):\(secret)".utf8).base64EncodedString()]
        }
        if let name = tokenVariable, let secret = environment[name] { return ["Authorization": "Bearer \(secret)"] }
        return [:]
    }
}
