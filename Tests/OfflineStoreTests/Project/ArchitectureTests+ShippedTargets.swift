import Foundation
import Testing

/// What an app links holds what an app runs: a declaration of the library or its platform
/// layer that only the tests, the benchmarks, the probes or the simulator use belongs in
/// their own targets (`OfflineStoreTestPlatform`, `OfflineStoreServerCheck`, the test
/// targets), not in what every app compiles.
extension ArchitectureTests {
    /// The targets an app links.
    static let shippedFolders = ["Sources/OfflineStore/", "Sources/OfflineStorePlatform/"]

    /// Targets whose use does not count: what only tests, probes, fuzzing and the simulator run.
    static let testOnlyFolders = ["Sources/OfflineStoreTesting/", "Sources/OfflineStoreFuzzing/", "Sources/offline-store-fuzz/",
                                  "Sources/offline-store-simulate/", "Sources/OfflineStoreTestPlatform/"]

    /// Declarations the shipped targets keep although only tests use them, each with why.
    static let testOnlyAllowed: [(name: String, why: String)] = [
        ("isPolling", "a lifetime the tests wait on instead of sleeping (the change watcher's polling ended)"),
        ("runningCount", "a lifetime the tests wait on instead of sleeping (every observation ended)"),
        ("isSending", "a lifetime the tests wait on instead of sleeping (the background sender's pass ended)"),
        ("hasWaitingReader", "a lifetime the tests wait on instead of sleeping (the body stream's reader waits)"),
        ("untilStopped", "a lifetime the tests wait on instead of sleeping (a live query's observation ended)"),
        ("untilAwaited", "a lifetime the tests wait on instead of sleeping (the flush waits for a request to go out)"),
    ]

    /// A declaration at file or type level that is neither public (an app may call it) nor
    /// private (its file uses it): its indentation, modifiers, kind and name.
    static let declaration = #"(?m)^( *)(?:@\w+(?:\([^)\n]*\))? +)*((?:(?:package|internal|static|final|nonisolated|mutating|override|public|open|private|fileprivate|lazy|convenience|required|indirect|class) +)*)(func|var|let|enum|struct|class|protocol|typealias|actor) +([A-Za-z_]\w*)"#

    /// How often each identifier appears in `texts`.
    static func wordCounts(_ texts: [String]) -> [Substring: Int] {
        var counts: [Substring: Int] = [:]
        for text in texts {
            for word in text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }) { counts[word, default: 0] += 1 }
        }
        return counts
    }

    /// The internal and package declarations of `shipped` that appear nowhere in `used` but
    /// their own declaration, and do appear in `tests`.
    static func testOnlyDeclarations(shipped: [(path: String, code: String)], used: [Substring: Int],
                                     tests: [Substring: Int]) throws -> [String] {
        let regex = try NSRegularExpression(pattern: declaration)
        var found: [String] = []
        for file in shipped {
            let text = file.code as NSString
            for match in regex.matches(in: file.code, range: NSRange(location: 0, length: text.length)) {
                let indent = match.range(at: 1).length, modifiers = text.substring(with: match.range(at: 2))
                let kind = text.substring(with: match.range(at: 3)), name = text.substring(with: match.range(at: 4))
                if modifiers.contains("public") || modifiers.contains("open") || modifiers.contains("private") { continue }
                // Locals of a function body are not declarations of the target.
                if indent > 8 || (indent > 4 && (kind == "var" || kind == "let")) || name.count < 4 { continue }
                guard used[Substring(name), default: 0] <= 1, tests[Substring(name), default: 0] > 0 else { continue }
                found.append("\(file.path): \(kind) \(name)")
            }
        }
        return found
    }

    @Test func theShippedTargetsHoldNothingOnlyTestsUse() throws {
        let files = try Self.repositoryFiles()
        let shipped = files.filter { file in Self.shippedFolders.contains { file.path.hasPrefix($0) } }
        #expect(shipped.count > 200, "the walk found the library: \(shipped.count) files")
        let used = Self.wordCounts(files.filter { file in
            (file.path.hasPrefix("Sources/") || file.path.hasPrefix("Examples/")) && !Self.testOnlyFolders.contains { file.path.hasPrefix($0) }
        }.map(\.code))
        let tests = Self.wordCounts(files.filter { file in
            file.path.hasPrefix("Tests/") || file.path.hasPrefix("Benchmarks/") || Self.testOnlyFolders.contains { file.path.hasPrefix($0) }
        }.map(\.code))
        let found = try Self.testOnlyDeclarations(shipped: shipped, used: used, tests: tests)
        let allowed = Set(Self.testOnlyAllowed.map(\.name))
        let offenders = found.filter { !allowed.contains(String($0.split(separator: " ").last ?? "")) }
        #expect(offenders.isEmpty, "only tests, benchmarks or probes use these; move them out of what apps link:\n\(offenders.joined(separator: "\n"))")
        for name in allowed where !found.contains(where: { $0.hasSuffix(" \(name)") }) {
            Issue.record("allowed test-only declaration no longer found in the shipped targets: \(name)")
        }
    }

    /// The check finds what it is meant to find (so an empty result means something).
    @Test func theTestOnlyCheckFindsATestOnlyDeclaration() throws {
        let shipped = [(path: "Sources/OfflineStore/X.swift", code: """
            struct Engine {
                func storedCursor(of collection: String) -> String? { nil }
                public func publicOne() {}
                func usedOne() {}
                func run() { usedOne() }
            }
            """)]
        let used = Self.wordCounts(shipped.map(\.code))
        let tests = Self.wordCounts(["engine.storedCursor(of: \"a\"); engine.publicOne(); engine.usedOne()"])
        #expect(try Self.testOnlyDeclarations(shipped: shipped, used: used, tests: tests) == ["Sources/OfflineStore/X.swift: func storedCursor"])
    }
}
