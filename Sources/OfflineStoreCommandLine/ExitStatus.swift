import OfflineStore

/// The documented exit codes (see `offline-store --help` and Docs/CLI.md).
package enum ExitStatus {
    /// The command did what it was asked.
    package static let success: Int32 = 0
    /// Any other failure.
    package static let failure: Int32 = 1
    /// `check-server`: a guarantee the resources file relies on does not hold on the server.
    package static let guaranteeMissing: Int32 = 2
    /// No such object.
    package static let notFound: Int32 = 3
    /// A conflict or a failed entry is left to resolve.
    package static let unresolved: Int32 = 4
    /// The server could not be reached, or did not answer in time.
    package static let unreachable: Int32 = 5
    /// The server refused the credentials or the access.
    package static let unauthorized: Int32 = 6
    /// A bad command line (as ArgumentParser's own usage errors).
    package static let usage: Int32 = 64
    /// A one-shot `flush`, `refresh` or `sync` stopped by SIGINT or SIGTERM (128 + SIGINT).
    package static let interrupted: Int32 = 130

    /// The exit code of a library error.
    package static func code(for error: OfflineStoreError) -> Int32 {
        switch error.code {
        case .notFound: notFound
        case .offline, .timeout: unreachable
        case .unauthorized, .forbidden: unauthorized
        case .conflict, .failedEntry: unresolved
        case .cancelled: interrupted
        default: failure
        }
    }
}
