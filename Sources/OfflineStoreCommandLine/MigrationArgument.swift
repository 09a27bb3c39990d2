import OfflineStore

/// The migration steps of `collection add … --schema-version N` on the command line:
/// `--rename OLD:NEW`, `--add-field FIELD=VALUE` (VALUE is JSON when it parses as JSON, else
/// text) and `--remove-field FIELD`, each leading to version N.
package enum MigrationArgument {
    /// The steps the options describe, in the order renames, added fields, removed fields (pure).
    ///
    /// - Throws: ``CLIError`` (usage) naming what is wrong.
    package static func steps(renames: [String], added: [String], removed: [String], version: Int) throws -> [ModelMigration] {
        var steps: [ModelMigration] = []
        for text in renames {
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw CLIError.usage("--rename '\(text)' is not OLD:NEW")
            }
            steps.append(.renameField(parts[0], to: parts[1], in: version))
        }
        for text in added {
            guard let pair = FieldValue(text) else { throw CLIError.usage("--add-field '\(text)' is not FIELD=VALUE") }
            steps.append(.addField(pair.field, default: pair.value, in: version))
        }
        for field in removed {
            guard !field.isEmpty else { throw CLIError.usage("--remove-field needs a field name") }
            steps.append(.removeField(field, in: version))
        }
        return steps
    }

    /// The collection's migration chain after `collection add`: the existing steps, and the
    /// given ones at `version` when it is above the existing version.
    ///
    /// - Throws: ``CLIError`` (usage) for a version below the existing one, or steps without
    ///   a version above it.
    package static func chain(existing: (version: Int, steps: [ModelMigration])?, version: Int?,
                      steps: [ModelMigration]) throws -> (version: Int, steps: [ModelMigration]) {
        let current = existing?.version ?? 1
        guard let version else {
            guard steps.isEmpty else { throw CLIError.usage("--rename, --add-field and --remove-field need --schema-version") }
            return (current, existing?.steps ?? [])
        }
        if version < current {
            throw CLIError.usage("the collection's records are at schema version \(current); --schema-version cannot go back to \(version)")
        }
        if !steps.isEmpty, version == current {
            throw CLIError.usage("migration steps need a --schema-version above the collection's \(current)")
        }
        return (version, (existing?.steps ?? []) + steps)
    }
}
