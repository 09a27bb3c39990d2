import Foundation
import Testing

/// The boundaries of Docs/Architecture.md: a facade that only composes, the edit and sync
/// engines beside each other, the persistence layer below them, rules that production calls.
extension ArchitectureTests {
    /// The top-level types a file declares.
    static func declaredTypes(in text: String) throws -> [String] {
        let pattern = try Regex(#"(?m)^(?:public |final |indirect |@\w+ )*(?:struct|enum|class|actor|protocol) ([A-Z]\w*)"#)
        return text.matches(of: pattern).compactMap { $0.output[1].substring.map(String.init) }
    }

    /// The identifiers of a piece of code, in order.
    static func identifiers(in code: String) -> [Substring] {
        code.split { !($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// Where the parts above the persistence layer live: the engines, the typed layer, the
    /// app-facing features and the network side, and the facade's own files.
    static func isAbovePersistence(_ path: String) -> Bool {
        let folders = ["Edit/", "Sync/Engine/", "Models/", "AutoSync/", "Auth/", "Partitions/", "Fetch/", "Backends/", "Transport/"]
        let file = (path as NSString).lastPathComponent
        return folders.contains { path.hasPrefix($0) } || file.hasPrefix("ObjectStore") || file.hasPrefix("ObjectCollection")
    }

    @Test func thePersistenceLayerDependsOnNothingAboveIt() throws {
        let files = try Self.files()
        var above = Set<String>()
        for file in files where Self.isAbovePersistence(file.path) { above.formUnion(try Self.declaredTypes(in: file.text)) }
        #expect(above.isSuperset(of: ["ObjectStore", "SyncEngine", "EditEngine", "ObjectCollection", "ModelCollection", "KintoBackend"]))
        var found: [String] = []
        for file in files where file.path.hasPrefix("Persistence/") {
            // The settings the store was opened with are a value every layer reads.
            let code = Self.withoutComments(file.text)
                .replacingOccurrences(of: "ObjectStore.Configuration", with: "").replacingOccurrences(of: "ObjectStore.FileProtection", with: "")
            for type in Set(Self.identifiers(in: code).map(String.init)).intersection(above) { found.append("\(file.path): \(type)") }
        }
        #expect(found.isEmpty, "Persistence/ uses parts above it: \(found.sorted())")
    }

    /// The tables' types that the facade and its collection handles must not call: they ask
    /// `LocalStore` (`LocalStore+Facade`) or an engine.
    static let tableTypes = ["QueueTable.", "ObjectRow.", "ObjectRow(", "BlobTable.", "ObjectKeyedTables."]

    @Test func theFacadeReadsAndWritesNoTable() throws {
        let facade = try Self.files().filter { file in
            let name = (file.path as NSString).lastPathComponent
            return name.hasPrefix("ObjectStore") || name.hasPrefix("ObjectCollection")
        }
        #expect(facade.count > 10, "the walk found the facade: \(facade.count) files")
        var offenders: [String] = []
        for file in facade {
            let code = Self.withoutComments(file.text)
            for table in Self.tableTypes where code.contains(table) { offenders.append("\(file.path): \(table)") }
        }
        #expect(offenders.isEmpty, "the facade reads or writes a table itself: \(offenders)")
    }

    @Test func theOtherTargetsHoldNoSQL() throws {
        let root = DocumentationTests.root.appendingPathComponent("Sources")
        var offenders: [String] = []
        for target in ["OfflineStoreInspector", "offline-store", "OfflineStoreTesting"] {
            let walker = try #require(FileManager.default.enumerator(at: root.appendingPathComponent(target), includingPropertiesForKeys: nil))
            for case let url as URL in walker where url.pathExtension == "swift" {
                let code = Self.withoutComments(try String(contentsOf: url, encoding: .utf8))
                if code.contains("import GRDB") || Self.sqlMarks.contains(where: code.contains) { offenders.append("\(target)/\(url.lastPathComponent)") }
            }
        }
        #expect(offenders.isEmpty, "SQL or GRDB outside the library's persistence layer: \(offenders)")
    }

    /// Code lines inside `ObjectStore`'s own bodies (its class and every `extension ObjectStore…`,
    /// braces included; blank lines and comments are not counted, so documenting the public API
    /// costs nothing): the facade forwards, so the code a reader must follow there stays small.
    /// 270 lines when this measure replaced a count that included doc comments (705 of 700).
    @Test func theFacadeOnlyComposes() throws {
        var lines = 0, all = 0
        var perFile: [String: Int] = [:]
        let opening = try Regex(#"^(?:public |final |@\w+ )*(?:class|extension) ObjectStore[ :{.]"#)
        for file in try Self.files() {
            var inside = false
            for line in file.text.components(separatedBy: "\n") {
                if !inside, line.firstMatch(of: opening) != nil { inside = true }
                if inside {
                    all += 1
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if !trimmed.isEmpty, !trimmed.hasPrefix("//") {
                        lines += 1
                        perFile[file.path, default: 0] += 1
                    }
                    if line.hasPrefix("}") { inside = false }
                }
            }
        }
        #expect(all > 300 && lines > 150, "the walk found the facade: \(perFile)")
        #expect(lines <= 300, "ObjectStore bodies hold \(lines) code lines: \(perFile.sorted { $0.value > $1.value })")
        // The facade drives neither the queue nor an object's rows: the engines do.
        let engineParts = ["QueueStep", "ConflictWrites", "FailedEntryWrites", "ObjectSnapshot", "ScopeRule", "withSyncLock",
                           "Backend.push", "backend.pull", "backend.push", "QueueTable.append", "ObjectRow(collection"]
        let facade = try Self.files().filter { ($0.path as NSString).lastPathComponent.hasPrefix("ObjectStore") }
        for file in facade {
            let code = Self.withoutComments(file.text)
            for part in engineParts where code.contains(part) { Issue.record("\(file.path) uses \(part): forward to an engine") }
        }
        #expect(try Self.files().filter { $0.text.contains("final class EditEngine") }.map(\.path) == ["Edit/EditEngine.swift"])
        #expect(try Self.files().filter { $0.text.range(of: #"(?m)^extension EditEngine"#, options: .regularExpression) != nil }
                    .allSatisfy { $0.path.hasPrefix("Edit/") }, "the edit engine lives in Edit/")
    }

    /// Every member a rule declares is used by the library itself (not only by its tests),
    /// and every rule has a test of its own: so the tables the tests hold are the ones
    /// production follows. Checked by name, outside the member's own declaration.
    @Test func productionCallsWhatTheRuleTablesTest() throws {
        let files = try Self.files()
        let rules = files.filter { $0.path.hasPrefix("Sync/Rules/") }
        // How often each identifier is used, and declared, in the library's code.
        var uses: [Substring: Int] = [:], declarations: [Substring: Int] = [:]
        for file in files {
            var previous: Substring = ""
            for identifier in Self.identifiers(in: Self.withoutComments(file.text)) {
                if ["func", "var", "let", "case"].contains(previous) { declarations[identifier, default: 0] += 1 }
                else { uses[identifier, default: 0] += 1 }
                previous = identifier
            }
        }
        let member = try Regex(#"(?m)^\s+(?:static |mutating |public )*(?:func|var|let) ([a-z]\w*)"#)
        var unused: [String] = []
        for rule in rules {
            for match in Self.withoutComments(rule.text).matches(of: member) {
                guard let name = match.output[1].substring, uses[name, default: 0] == 0 else { continue }
                unused.append("\(rule.path): \(name)")
            }
        }
        #expect(unused.isEmpty, "rule members production never uses (test them through what production calls): \(unused)")

        let testText = try Self.testFiles().map(\.text).joined(separator: "\n")
        // The rule each file is named for.
        let named = rules.map { (($0.path as NSString).lastPathComponent as NSString).deletingPathExtension }
        let tested = Set(Self.identifiers(in: testText).map(String.init))
        #expect(named.count >= 9 && named.allSatisfy(tested.contains), "rules without a test of their own: \(named.filter { !tested.contains($0) })")
    }
}

extension ArchitectureTests {
    /// The Swift files of both test targets (the suite that needs servers or the file
    /// system, and the unit target), by file name, with their text.
    static func testFiles() throws -> [(name: String, text: String)] {
        var files: [(name: String, text: String)] = []
        for target in ["Tests/OfflineStoreTests", "Tests/OfflineStoreUnitTests"] {
            let folder = DocumentationTests.root.appendingPathComponent(target)
            let walker = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            for case let url as URL in walker where url.pathExtension == "swift" {
                files.append((url.lastPathComponent, try String(contentsOf: url, encoding: .utf8)))
            }
        }
        #expect(files.contains { $0.name == "SyncLifecycleTests.swift" }, "the walk found the unit target")
        return files
    }

    /// A test that waits for a stream's next element hangs forever when the element never
    /// comes: every suite of a test file that awaits one carries a time limit.
    @Test func everyTestThatAwaitsAStreamHasATimeLimit() throws {
        // Iterating a sequence, or asking an iterator for its next element (task groups aside).
        let awaitsAStream = try Regex(#"for (try )?await [^\n]* in (?!group\b)|await (?!group\.)[A-Za-z_.]+\.next\("#)
        var checked = 0, missing: [String] = []
        for file in try Self.testFiles() {
            let code = Self.withoutComments(file.text)
            guard code.contains(awaitsAStream) else { continue }
            checked += 1
            for suite in code.components(separatedBy: "\n").filter({ $0.contains("@Suite") }) where !suite.contains(".timeLimit(") {
                missing.append("\(file.name): \(suite.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(checked >= 10, "the walk found the tests that await streams: \(checked)")
        #expect(missing.isEmpty, "suites that await streams without a time limit: \(missing)")
    }
}
