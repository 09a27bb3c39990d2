import Foundation
import OfflineStore
import OfflineStoreCommandLine

/// `collection add NAME` on an OData store: NAME must be an entity set of the service's
/// `$metadata` whose key the store can sync. The service is asked when it can be reached;
/// otherwise the collection is added unchecked, as `collection add` never needs the network.
enum ODataEntitySetCheck {
    /// What `collection add` learnt.
    enum Verdict: Equatable {
        /// The service declares the set, with a key the store syncs.
        case known
        /// The service could not be asked; why.
        case unchecked(String)
    }

    /// Asks the service for its `$metadata` and judges `name` (``judge(_:sets:)``).
    ///
    /// - Throws: ``CLIError`` (exit 1) for a set the service does not declare or cannot sync.
    static func check(_ name: String, settings: CLISettings, environment: [String: String],
                      transport: any HTTPTransport = URLSessionTransport(followingRedirects: false)) async throws -> Verdict {
        var request = HTTPRequest(method: "GET", url: settings.server.appendingPathComponent("$metadata"),
                                  headers: [("Accept", "application/xml")], timeout: .seconds(10))
        for (header, value) in settings.httpHeaders(environment: environment) { request.headers.append((header, value)) }
        let response: HTTPResponse
        do { response = try await transport.send(request) } catch let error as TransportError {
            return .unchecked("the service cannot be reached: \(error.kind.rawValue)")
        }
        guard response.status == 200 else {
            return .unchecked("GET $metadata answered HTTP \(response.status)")
        }
        let sets: [String: ODataSetOutline]
        do { sets = try ODataSetOutline.read(metadata: response.body) } catch let error as OfflineStoreError {
            return .unchecked("its $metadata cannot be read: \(error.message)")
        }
        try judge(name, sets: sets)
        return .known
    }

    /// Whether the store can sync the entity set `name` of a service declaring `sets`.
    ///
    /// - Throws: ``CLIError`` (exit 1) listing the sets there are, or saying why the set's key
    ///   cannot be synced.
    static func judge(_ name: String, sets: [String: ODataSetOutline]) throws {
        guard let set = sets[name] else {
            throw CLIError("the service's $metadata has no entity set '\(name)' (its sets: "
                + "\(sets.keys.sorted().joined(separator: ", "))); or add it with --local-only")
        }
        if let problem = set.keyProblem { throw CLIError("entity set '\(name)' cannot be synced: \(problem)") }
    }
}
