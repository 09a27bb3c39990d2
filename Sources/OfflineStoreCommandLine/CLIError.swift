import Foundation
import OfflineStore

/// An error the CLI reports itself: one line on stderr and an exit code.
package struct CLIError: Error, CustomStringConvertible {
    /// The line printed on stderr.
    package var message: String
    /// The exit code (``ExitStatus``).
    package var exitCode: Int32

    /// An error with its message and exit code (1 unless given).
    package init(_ message: String, exitCode: Int32 = ExitStatus.failure) {
        self.message = message
        self.exitCode = exitCode
    }

    /// A bad command-line argument that ArgumentParser could not catch (exit 64).
    package static func usage(_ message: String) -> CLIError { CLIError(message, exitCode: ExitStatus.usage) }

    /// The message.
    package var description: String { message }

    /// Any error as one line and an exit code.
    package static func describe(_ error: any Error) -> CLIError {
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
    package static func line(for error: OfflineStoreError) -> String {
        var text = error.message
        if let status = error.status { text += " (HTTP \(status))" }
        if let body = error.body, !body.isEmpty {
            let flat = body.replacingOccurrences(of: "\n", with: " ")
            text += ": " + (flat.count > 300 ? String(flat.prefix(300)) + "…" : flat)
        }
        return text
    }
}
