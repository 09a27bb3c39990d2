import Foundation
import OfflineStore

/// `migration`: a chain of declarative steps as the store file keeps it (what another process
/// or a hand-written definition may hold) and a record, through the migration chain.
enum MigrationFuzzing {
    static let target = FuzzTarget(
        name: "migration",
        summary: "JSON {\"version\", \"steps\" (the stored form), \"record\"} → decode, validate, upgrade from every version: "
            + "typed errors, or an object with the same id; a valid chain leaves records of the current shape as they are; a stored chain reads back as written",
        check: check)

    static func check(_ input: [UInt8]) throws(PropertyViolation) {
        guard let document = try? JSONValue(parsing: input) else { return }
        let version = document["version"]?.intValue.map { Int(clamping: $0) } ?? 2
        let record = document["record"] ?? ["id": "a"]
        // The steps as the store reads its stored definitions: Foundation's decoder over the text.
        let steps: [StoredMigration]
        do {
            steps = try JSONDecoder().decode([StoredMigration].self, from: Data((document["steps"] ?? []).serialized().utf8))
        } catch is DecodingError {
            return
        } catch {
            throw PropertyViolation("stored steps are refused with a DecodingError", "\(error)")
        }
        let migrations = steps.compactMap(\.migration)
        var valid = true
        do { try MigrationChain.validate(version: version, migrations: migrations, collection: "c") } catch let error as OfflineStoreError {
            try require(error.code == .configuration, "an invalid chain is a configuration error", "\(error.code)")
            valid = false
        } catch {
            throw PropertyViolation("validate throws only OfflineStoreError", "\(error)")
        }
        if let kept = StoredMigration.chain(migrations) { try checkStoredForm(kept) }
        // A store runs whatever chain its file holds on arriving records, valid or not.
        let chain = MigrationChain(version: version, migrations: migrations)
        for stored in [nil] + (1...max(1, min(version, 8))).map(Optional.some) {
            let upgraded: JSONValue?
            do {
                upgraded = try chain.upgrade(record, from: stored, collection: "c")
            } catch {
                try require(error.id == (record["id"]?.stringValue ?? ""), "a failure names the record's id", error.id)
                continue
            }
            guard let upgraded else { continue }
            try require(upgraded.objectValue != nil && upgraded["id"] == record["id"], "an upgraded record is an object with the same id",
                        shown(upgraded))
            try require(upgraded != record, "a changed record is returned only when it changed")
            // Records of the current shape arrive through every step too (the server does not say
            // which release wrote them): a valid chain leaves them as they are, its own output and
            // another client's record of the same fields with other values alike.
            if valid, stored == nil, case .object(let members) = upgraded {
                var current = members
                for key in members.keys where key != "id" { current[key] = .string("another client's \(key)") }
                for shape in [upgraded, .object(current)] {
                    let again = try? chain.upgrade(shape, from: nil, collection: "c")
                    try require(again == .some(nil), "a valid chain leaves a record of the current shape as it is",
                                "\(shown(record)) → \(shown(shape)) → \(shown(again as Any))")
                }
            }
        }
    }

    /// The stored form of a chain reads back as it was written (the store writes it with
    /// Foundation's encoder, another process reads it with the decoder).
    static func checkStoredForm(_ kept: [StoredMigration]) throws(PropertyViolation) {
        do {
            let text = try JSONEncoder().encode(kept)
            let again = try JSONDecoder().decode([StoredMigration].self, from: text)
            try require(again == kept, "a stored chain reads back as it was written",
                        "\(shown(kept)) → \(shown(String(decoding: text, as: UTF8.self)))")
        } catch let violation as PropertyViolation {
            throw violation
        } catch {
            throw PropertyViolation("a stored chain encodes and decodes", "\(error)")
        }
    }
}
