import OfflineStore

/// The per-entity-set settings file of `offline-store init --backend odata --odata FILE`
/// (Docs/CLI.md, "The OData settings file"):
///
/// ```json
/// {"Tasks": {"changedSince": "ModifiedAt", "changedSinceMarginSeconds": 2, "batchSize": 20, "sweepEvery": 10}}
/// ```
///
/// Top-level keys are entity-set names, each an object whose keys are all optional: a
/// missing key (or `null` for `changedSince` and `batchSize`) keeps the default of
/// ``ODataEntitySetSettings``. Every key is checked, so a misspelt one is an error rather
/// than a setting silently left at its default.
package enum ODataSettingsFile {
    /// The keys an entity set's object may hold.
    package static let keys = ["batchSize", "changedSince", "changedSinceMarginSeconds", "sweepEvery"]

    /// The settings of each entity set the document names.
    ///
    /// - Parameter source: how messages name the document, e.g. `--odata shop.json`.
    /// - Throws: ``CLIError`` (exit 64) naming the file and the key that is unknown, of the
    ///   wrong type or out of range.
    package static func settings(_ document: JSONValue, source: String) throws -> [String: ODataEntitySetSettings] {
        func bad(_ text: String) -> CLIError { .usage("\(source): \(text)") }
        guard let sets = document.objectValue else {
            throw bad("must be a JSON object of entity-set names, got \(document.typeName)")
        }
        var result: [String: ODataEntitySetSettings] = [:]
        for (name, value) in sets.sorted(by: { $0.key < $1.key }) {
            guard isIdentifier(name) else {
                throw bad("\"\(name)\" is not an entity-set name (letters, digits and '_', not starting with a digit)")
            }
            guard let members = value.objectValue else {
                throw bad("\(name) must be an object of settings, got \(value.typeName)")
            }
            if let unknown = members.keys.sorted().first(where: { !keys.contains($0) }) {
                throw bad("\(name).\(unknown) is not a setting this version knows (an entity set takes "
                    + "\(keys.joined(separator: ", ")))")
            }
            result[name] = try entitySet(name, members, bad)
        }
        return result
    }

    private static func entitySet(_ name: String, _ members: [String: JSONValue],
                                  _ bad: (String) -> CLIError) throws -> ODataEntitySetSettings {
        var settings = ODataEntitySetSettings()
        if let value = members["changedSince"], !value.isNull {
            guard let property = value.stringValue, isIdentifier(property) else {
                throw bad("\(name).changedSince must be a property name (text, letters, digits and '_') or null, got \(value)")
            }
            settings.changedSince = property
        }
        if let value = members["changedSinceMarginSeconds"] {
            guard let seconds = value.doubleValue, seconds >= 0, seconds <= 86_400 else {
                throw bad("\(name).changedSinceMarginSeconds must be a number of seconds from 0 to 86400, got \(value)")
            }
            settings.changedSinceMargin = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        if let value = members["batchSize"], !value.isNull {
            guard let size = value.intValue, size >= 1, size <= 1000 else {
                throw bad("\(name).batchSize must be a whole number from 1 to 1000 or null, got \(value)")
            }
            settings.batchSize = Int(size)
        }
        if let value = members["sweepEvery"] {
            guard let every = value.intValue, every >= 1, every <= 1_000_000 else {
                throw bad("\(name).sweepEvery must be a whole number of refreshes from 1 to 1000000, got \(value)")
            }
            settings.sweepEvery = Int(every)
        }
        return settings
    }

    /// An OData simple identifier, ASCII only: a letter or `_`, then letters, digits and `_`.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first)
        else { return false }
        return text.unicodeScalars.allSatisfy {
            $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        } && text.unicodeScalars.count <= 128
    }
}
