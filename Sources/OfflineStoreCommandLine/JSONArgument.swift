import OfflineStore

/// JSON given on the command line.
package enum JSONArgument {
    /// Parses a JSON object argument.
    ///
    /// - Throws: ``CLIError`` (exit 64) naming the byte offset of a syntax error, or the
    ///   type found when the value is not an object.
    package static func object(_ text: String, name: String = "JSON argument") throws -> JSONValue {
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch let error as JSONError {
            throw CLIError.usage("\(name) is \(error)")
        }
        guard value.objectValue != nil else {
            throw CLIError.usage("\(name) must be a JSON object, got \(value.typeName)")
        }
        return value
    }
}
