import Foundation
import OfflineStore
import OfflineStoreCommandLine

/// `cli-where`: command-line arguments into the `offline-store` tool's parsers: `--where
/// FIELD=VALUE` (then the query it makes, on a store), `--scope` terms, JSON arguments and the
/// migration options of `collection add`.
enum CLIWhereFuzzing {
    static let target = FuzzTarget(
        name: "cli-where",
        summary: "first byte: which parser (where, scope, JSON, migration); the rest: the argument as argv gives it → the CLI's "
            + "parsers: usage errors (exit 64) or values that spell the argument back; a --where on an object holding that value finds it",
        fuzzerFlags: FuzzTarget.asyncFlags,
        check: check)

    static func check(_ input: [UInt8]) throws(PropertyViolation) {
        var choices = FuzzInput(input)
        let mode = choices.byte()
        // An argument is a C string: it ends at the first NUL, and invalid UTF-8 is repaired.
        let bytes = choices.rest
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        switch mode % 4 {
        case 0: try checkWhere(text)
        case 1: try checkScope(text)
        case 2: try checkJSONArgument(text)
        default: try checkMigration(text, version: Int(mode / 4 % 5))
        }
    }

    // MARK: --where

    static func checkWhere(_ text: String) throws(PropertyViolation) {
        guard let clause = WhereClause(argument: text) else {
            let equals = text.firstIndex(of: "=")
            try require(equals == nil || equals == text.startIndex, "only an argument without FIELD= is refused", shown(text))
            return
        }
        let raw = String(text.dropFirst(clause.field.count + 1))
        try require(!clause.field.isEmpty && !clause.field.contains("=") && text == clause.field + "=" + raw,
                    "FIELD is the text before the first =", shown(text))
        try require(clause.value == ((try? JSONValue(parsing: raw)) ?? .string(raw)), "VALUE is JSON when it parses, else the text",
                    shown(text))
        try checkQuery(clause)
    }

    /// An object that holds the value at the field's path is found by the clause; a query fails
    /// only for a field path the store refuses.
    static func checkQuery(_ clause: WhereClause) throws(PropertyViolation) {
        let segments = clause.field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let object = segments.reversed().reduce(clause.value) { inner, segment in JSONValue.object([segment: inner]) }
        let holds = segments.first != "id" && !segments.contains("") && clause.field.utf8.count <= 512
        let outcome = runBlocking { () -> Result<[String], any Error> in
            let collection = store.collection("w")
            do {
                var saved = false
                if holds, case .object(var members) = object {
                    members["id"] = "probe"
                    saved = (try? await collection.save(.object(members))) != nil
                }
                let found = try collection.objects(where: clause.condition).map(\.id)
                if saved { try await collection.destroy("probe") }
                return .success(saved ? found : found + ["(not saved)"])
            } catch {
                if (try? collection.find("probe")) != nil { _ = try? await collection.destroy("probe") }
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let ids):
            if !ids.contains("(not saved)") {
                try require(ids.contains("probe"), "--where FIELD=VALUE finds an object whose FIELD holds VALUE",
                            "\(shown(clause.field)) = \(shown(clause.value))")
            }
        case .failure(let error):
            let code = (error as? OfflineStoreError)?.code
            try require(code == .invalidFieldPath, "a --where query fails only for a field path the store refuses", "\(error)")
        }
    }

    /// An in-memory store with a local collection `w` and a few objects of every type.
    static let store: ObjectStore = {
        do {
            let store = try ObjectStore.inMemory()
            try store.register(CollectionDescriptor("w", localOnly: true))
            runBlocking {
                let collection = store.collection("w")
                for (index, value) in [JSONValue.null, true, 0, 1, -1.5, "", "x", [], [1], [:], ["a": 1]].enumerated() {
                    _ = try? await collection.create(["id": .string("o\(index)"), "a": value, "b": ["c": value]])
                }
            }
            return store
        } catch {
            fatalError("the cli-where target's store could not be made: \(error)")
        }
    }()

    // MARK: --scope

    static func checkScope(_ text: String) throws(PropertyViolation) {
        let term: ServerQuery.Term
        do {
            term = try ScopeArgument.parse(text)
        } catch let error as CLIError {
            try require(error.exitCode == ExitStatus.usage, "a refused scope is a usage error (64)", "\(error.exitCode)")
            return
        } catch {
            throw PropertyViolation("ScopeArgument.parse throws only CLIError", "\(error)")
        }
        guard let symbol = ScopeArgument.operators.first(where: { $0.1 == term.op })?.0 else {
            throw PropertyViolation("a scope term's operator is one the argument spells", "\(term.op)")
        }
        try require(isPlainName(term.field), "a scope field is a plain name", shown(term.field))
        try require(text.hasPrefix(term.field + symbol), "the argument is FIELD, then its operator", "\(shown(text)) → \(term.field) \(symbol)")
        let raw = String(text.dropFirst(term.field.count + symbol.count))
        try require(text == term.field + symbol + raw, "the argument is FIELD OPERATOR VALUE", shown(text))
        let expected = (try? JSONValue(parsing: raw)).flatMap(\.isScalarValue) ?? .string(raw)
        try require(term.value == expected, "VALUE is a JSON scalar when it parses as one, else the text",
                    "\(shown(text)) → \(shown(term.value))")
        // The first operator in the text decides.
        for (other, _) in ScopeArgument.operators where other != symbol {
            if let range = text.range(of: other) {
                try require(text.distance(from: text.startIndex, to: range.lowerBound) >= term.field.count,
                            "the first operator in the argument decides", "\(shown(text)): \(other) before \(symbol)")
            }
        }
    }

    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 64 else { return false }
        func letter(_ b: UInt8) -> Bool { (65...90).contains(b) || (97...122).contains(b) || b == 95 }
        return letter(first) && name.utf8.allSatisfy { letter($0) || (48...57).contains($0) }
    }

    // MARK: JSON arguments

    static func checkJSONArgument(_ text: String) throws(PropertyViolation) {
        let parsed = try? JSONValue(parsing: text)
        do {
            let object = try JSONArgument.object(text)
            try require(object == parsed && object.objectValue != nil, "a JSON argument is the object the text holds", shown(text))
        } catch let error as CLIError {
            try require(error.exitCode == ExitStatus.usage, "a refused JSON argument is a usage error (64)", "\(error.exitCode)")
            try require(parsed?.objectValue == nil, "only text that is no JSON object is refused", shown(text))
        } catch {
            throw PropertyViolation("JSONArgument.object throws only CLIError", "\(error)")
        }
    }

    // MARK: collection add --rename / --add-field / --remove-field

    /// Lines of `text`: `r OLD:NEW`, `a FIELD=VALUE`, anything else a removed field.
    static func checkMigration(_ text: String, version: Int) throws(PropertyViolation) {
        var renames: [String] = [], added: [String] = [], removed: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("r ") { renames.append(String(line.dropFirst(2))) }
            else if line.hasPrefix("a ") { added.append(String(line.dropFirst(2))) }
            else { removed.append(String(line)) }
        }
        let steps: [ModelMigration]
        do {
            steps = try MigrationArgument.steps(renames: renames, added: added, removed: removed, version: version)
        } catch let error as CLIError {
            try require(error.exitCode == ExitStatus.usage, "refused migration options are a usage error (64)", "\(error.exitCode)")
            return
        } catch {
            throw PropertyViolation("MigrationArgument.steps throws only CLIError", "\(error)")
        }
        try require(steps.count == renames.count + added.count + removed.count, "one step per option", "\(steps.count)")
        try require(steps.allSatisfy { $0.version == version }, "every step leads to the given version")
        do {
            let chain = try MigrationArgument.chain(existing: (1, []), version: version, steps: steps)
            try require(chain.version == version && chain.steps.count == steps.count, "the chain holds the new steps at the version")
            try MigrationChain.validate(version: version, migrations: steps, collection: "c")
        } catch let error as CLIError {
            try require(error.exitCode == ExitStatus.usage, "a refused version is a usage error (64)", "\(error.exitCode)")
        } catch let error as OfflineStoreError {
            try require(error.code == .configuration, "a chain the store refuses is a configuration error", "\(error.code)")
        } catch let violation as PropertyViolation {
            throw violation
        } catch {
            throw PropertyViolation("a migration chain is refused with a typed error", "\(error)")
        }
    }
}

private extension JSONValue {
    /// The value when it is a string, number or boolean.
    var isScalarValue: JSONValue? {
        switch self {
        case .string, .int, .double, .bool: self
        default: nil
        }
    }
}
