/// A JSON text that could not be read, with the byte offset where reading stopped.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, e.g. "unterminated string".
    public let reason: String
    /// Byte offset into the input where the problem was found.
    public let offset: Int

    /// Creates an error for a problem at a byte offset.
    public init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// "invalid JSON at byte N: reason".
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
