import ArgumentParser
import Foundation
import OfflineStore

/// The documented exit codes (see `offline-store --help` and Docs/CLI.md).
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    /// `check-server`: a guarantee the resources file relies on does not hold on the server.
    static let guaranteeMissing: Int32 = 2
    static let notFound: Int32 = 3
    static let unresolved: Int32 = 4
    static let unreachable: Int32 = 5
    static let unauthorized: Int32 = 6
    static let usage: Int32 = 64
    /// A one-shot `flush`, `refresh` or `sync` stopped by SIGINT or SIGTERM (128 + SIGINT).
    static let interrupted: Int32 = 130

    /// The exit code of a library error.
    static func code(for error: OfflineStoreError) -> Int32 {
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

/// An error the CLI reports itself: one line on stderr and an exit code.
struct CLIError: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32

    init(_ message: String, exitCode: Int32 = ExitStatus.failure) {
        self.message = message
        self.exitCode = exitCode
    }

    /// A bad command-line argument that ArgumentParser could not catch (exit 64).
    static func usage(_ message: String) -> CLIError { CLIError(message, exitCode: ExitStatus.usage) }

    var description: String { message }

    /// Any error as one line and an exit code.
    static func describe(_ error: any Error) -> CLIError {
        switch error {
        case let error as CLIError:
            return error
        case let error as OfflineStoreError:
            let line = error.report == nil ? line(for: error) : "stopped early: " + line(for: error)
            return CLIError(line, exitCode: ExitStatus.code(for: error))
        case let error as JSONError:
            return .usage("JSON argument: \(error)")
        default:
            return CLIError(String(describing: error))
        }
    }

    /// "message (HTTP 422): server body", on one line, the body shortened.
    static func line(for error: OfflineStoreError) -> String {
        var text = error.message
        if let status = error.status { text += " (HTTP \(status))" }
        if let body = error.body, !body.isEmpty {
            let flat = body.replacingOccurrences(of: "\n", with: " ")
            text += ": " + (flat.count > 300 ? String(flat.prefix(300)) + "…" : flat)
        }
        return text
    }
}

/// A command that reports its own errors: one line on stderr, then the documented exit code.
///
/// Conformers implement ``execute()``; ``run()`` maps what it throws. ArgumentParser's
/// `ValidationError` passes through (usage and exit 64).
protocol StoreCommand: AsyncParsableCommand {
    mutating func execute() async throws
}

extension StoreCommand {
    mutating func run() async throws {
        do {
            try await execute()
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            let failure = CLIError.describe(error)
            Output.error(failure.message)
            throw ExitCode(failure.exitCode)
        }
    }
}
