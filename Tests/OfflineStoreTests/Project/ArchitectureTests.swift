import Foundation
import Testing

/// The engine's shape, checked on the sources so it cannot rot (Docs/Architecture.md):
/// SQL lives in the persistence layer only, the engine's rules are pure, and no type is
/// spread over many files.
@Suite("Architecture rules")
struct ArchitectureTests {
    static let sources = DocumentationTests.root.appendingPathComponent("Sources/OfflineStore")

    /// Every Swift file of the library, by path relative to `Sources/OfflineStore`.
    static func files() throws -> [(path: String, text: String)] {
        let walker = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var files: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            files.append((String(url.path.dropFirst(sources.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// Marks of SQL text, SQL fragments, or of running statements on a GRDB `Database`.
    static let sqlMarks = ["sql:", "db.execute(", "cachedStatement(", "makeStatement(", "PRAGMA", "json_extract",
                           "CREATE INDEX", "CREATE TABLE", "SELECT ", "INSERT INTO", "DELETE FROM", "where: \"", " IN ("]

    @Test func sqlLivesInThePersistenceLayerOnly() throws {
        let files = try Self.files()
        #expect(files.count > 150, "the walk found the sources: \(files.count)")
        let offenders = files.filter { !$0.path.hasPrefix("Persistence/") }
            .filter { file in Self.sqlMarks.contains { Self.withoutComments(file.text).contains($0) } }.map(\.path)
        #expect(offenders.isEmpty, "SQL outside Sources/OfflineStore/Persistence: \(offenders)")
    }

    /// Marks of a prepared statement of the persistence layer: the writer's own statements,
    /// and binding parameters or reading columns by index.
    static let statementMarks = ["writerStatements", "WriterStatements", "HotStatement", ".bind(", "sqlite3_"]

    @Test func statementsNeverLeaveThePersistenceLayer() throws {
        let files = try Self.files()
        let offenders = files.filter { !$0.path.hasPrefix("Persistence/") }
            .filter { file in Self.statementMarks.contains { Self.withoutComments(file.text).contains($0) } }.map(\.path)
        #expect(offenders.isEmpty, "a statement, its binding or its columns outside Sources/OfflineStore/Persistence: \(offenders)")
        #expect(files.contains { $0.path.hasPrefix("Persistence/") && $0.text.contains("writerStatements") },
                "the check looks for what the persistence layer names")
    }

    @Test func theRulesArePureValues() throws {
        let rules = try Self.files().filter { $0.path.hasPrefix("Sync/Rules/") }
        #expect(rules.count >= 6)
        for rule in rules {
            #expect(!rule.text.contains("import GRDB"), "\(rule.path) reads the database")
            #expect(!rule.text.contains("async"), "\(rule.path) does I/O")
        }
    }

    @Test func noTypeIsSpreadOverManyFiles() throws {
        let files = try Self.files()
        // `extension Name {` / `extension Name: P`, not a nested type such as `extension Name.Configuration`.
        let pattern = try Regex(#"(?m)^extension ([A-Za-z]+)[ :{]"#)
        var filesPerType: [String: Set<String>] = [:]
        for file in files {
            for match in file.text.matches(of: pattern) {
                if let name = match.output[1].substring { filesPerType[String(name), default: []].insert(file.path) }
            }
        }
        // The public facade is split by topic (edits, queue, observation, sync, storage …);
        // the engine and the local store by what they do.
        // The sync engine is split by step (flush, push answers, refresh, pulled changes, lost answers, re-keying,
        // conflicts, fetch, blobs, collection access) and by what it orchestrates (runs, resets, scopes).
        // The local store: its connections, blobs, change log, observation, eviction, size, the
        // writes the engines name by intention on the writer's statements, and what the facade asks.
        let limits = ["ObjectStore": 14, "SyncEngine": 14, "LocalStore": 8]
        for (type, paths) in filesPerType {
            let limit = limits[type] ?? 10
            #expect(paths.count <= limit, "\(type) is extended from \(paths.count) files: \(paths.sorted())")
        }
        #expect(filesPerType["SyncEngine"]?.allSatisfy { $0.hasPrefix("Sync/Engine/") } == true,
                "the engine lives in Sync/Engine/")
    }
}
