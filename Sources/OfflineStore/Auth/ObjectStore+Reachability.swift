/// Whether the server answers, and whether it accepts the credentials.
enum Reachability: Sendable, Equatable {
    case reachable
    case offline
    /// The server answered but refused the credentials (401/403): it is reachable, the edit is not allowed.
    case unauthorized(OfflineStoreError)
}

extension ObjectStore {
    /// Pings the backend (offline without a backend or when forced offline).
    func reachability() async -> Reachability {
        guard let backend, !isForcedOffline else { return .offline }
        do {
            try await backend.ping()
            return .reachable
        } catch let error as OfflineStoreError where error.code == .unauthorized {
            return .unauthorized(error)
        } catch {
            return .offline
        }
    }

    /// The error an online-only edit fails with, or nil when the server can take it.
    static func onlineOnlyError(_ reachability: Reachability, collection: String) -> OfflineStoreError? {
        switch reachability {
        case .reachable: nil
        case .offline:
            OfflineStoreError(.offline, "\(collection) updates only online and the server cannot be reached; nothing changed")
        case .unauthorized(let error):
            OfflineStoreError(.unauthorized, "\(collection) updates only online and the server refused the credentials; nothing changed",
                              status: error.status)
        }
    }
}
