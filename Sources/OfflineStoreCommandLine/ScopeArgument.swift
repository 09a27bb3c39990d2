import OfflineStore

/// One term of a sync scope on the command line: `FIELD=VALUE`, `FIELD!=VALUE`,
/// `FIELD<VALUE`, `FIELD>VALUE`, `FIELD<=VALUE`, `FIELD>=VALUE`. VALUE is JSON when it
/// parses as JSON (`3`, `true`, `"007"`), else text (`north`).
package enum ScopeArgument {
    /// The operators, longest first so `<=` is not read as `<`.
    package static let operators: [(String, ServerQuery.Term.Operator)] = [
        ("!=", .notEqual), ("<=", .atMost), (">=", .atLeast), ("=", .equal), ("<", .lessThan), (">", .greaterThan),
    ]

    /// The term `text` describes (pure).
    ///
    /// - Throws: ``CLIError`` (usage) naming what is wrong.
    package static func parse(_ text: String) throws -> ServerQuery.Term {
        for (symbol, op) in operators {
            guard let range = text.range(of: symbol) else { continue }
            // The first operator in the text decides (a value may hold `=`).
            if operators.contains(where: { other in
                other.0 != symbol && text.range(of: other.0).map { $0.lowerBound < range.lowerBound } == true
            }) { continue }
            let field = String(text[..<range.lowerBound]), rawValue = String(text[range.upperBound...])
            guard !field.isEmpty else { throw CLIError("scope '\(text)' has no field before '\(symbol)'", exitCode: ExitStatus.usage) }
            let value = (try? JSONValue(parsing: rawValue)).flatMap { $0.isScalarScopeValue ? $0 : nil } ?? .string(rawValue)
            let term = ServerQuery.Term(field, op, value)
            do { try ServerQuery([term]).validate() } catch let error as OfflineStoreError {
                throw CLIError("scope '\(text)': \(error.message)", exitCode: ExitStatus.usage)
            }
            return term
        }
        throw CLIError("scope '\(text)' is not FIELD=VALUE (or !=, <, >, <=, >=)", exitCode: ExitStatus.usage)
    }
}

private extension JSONValue {
    var isScalarScopeValue: Bool {
        switch self {
        case .string, .int, .double, .bool: true
        default: false
        }
    }
}
