#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's standard streams and whether a person is watching them.
package enum StandardStream: Sendable {
    case input, output, error

    /// The stream's descriptor (0, 1, 2).
    package var descriptor: Int32 {
        switch self {
        case .input: STDIN_FILENO
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Whether the stream is a terminal (`isatty(3)`).
    package var isTerminal: Bool { isatty(descriptor) == 1 }
}
