import Foundation
import Testing

/// The docs say what the code does: no promises of features that shipped, no references to
/// documents outside the repository, and README's quick start is the example the package builds.
@Suite("Docs match the code")
struct DocumentationTests {
    /// The repository's root: the nearest folder above this file that holds `Package.swift`.
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path), folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    /// Words that mark a feature as missing, or a reference outside the repository.
    static let forbidden = ["SPEC §", "(planned)", "not yet"]

    /// Lines allowed to keep a forbidden phrase, each by file and a piece of the line, with
    /// why. Only lines about a feature that is truly missing belong here.
    static let allowed: [(file: String, line: String, why: String)] = [
        ("Docs/Sync.md", "It does **not yet** remove local",
         "a full refresh does not remove local objects whose server tombstones were purged: missing today"),
    ]

    /// Every Markdown file under Docs/, README.md, and every Swift file under Sources/.
    static func checkedFiles() throws -> [URL] {
        var files = [root.appendingPathComponent("README.md")]
        for (folder, ext) in [("Docs", "md"), ("Sources", "swift")] {
            let base = root.appendingPathComponent(folder)
            let walker = try #require(FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil))
            for case let url as URL in walker where url.pathExtension == ext { files.append(url) }
        }
        return files
    }

    @Test func noDocOrSourcePromisesWhatShippedOrPointsOutsideTheRepository() throws {
        let files = try Self.checkedFiles()
        #expect(files.count > 100, "the walk found the sources: \(files.count) files")
        var found: [String] = []
        var allowanceUsed = Array(repeating: false, count: Self.allowed.count)
        for file in files {
            let relative = String(file.path.dropFirst(Self.root.path.count + 1))
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() {
                guard Self.forbidden.contains(where: { line.range(of: $0, options: .caseInsensitive) != nil }) else { continue }
                if let index = Self.allowed.firstIndex(where: { $0.file == relative && line.contains($0.line) }) {
                    allowanceUsed[index] = true
                    continue
                }
                found.append("\(relative):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "say what the code does, or allow-list a truly missing feature:\n\(found.joined(separator: "\n"))")
        for (index, used) in allowanceUsed.enumerated() where !used {
            Issue.record("allow-list entry no longer needed: \(Self.allowed[index].file): \(Self.allowed[index].line)")
        }
    }

    /// The program under README's "## Quick start" heading.
    static func readmeQuickStart() throws -> String {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let heading = try #require(lines.firstIndex(of: "## Quick start"), "README has a \"## Quick start\" heading")
        // The program: the first ```swift block that starts with an import (the one before it
        // shows the Package.swift lines).
        let open = try #require(lines.indices.dropFirst(heading).first { lines[$0] == "```swift" && lines[$0 + 1].hasPrefix("import ") },
                                "a ```swift block starting with an import follows it")
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"), "the block is closed")
        return lines[(open + 1)..<close].joined(separator: "\n") + "\n"
    }

    @Test func readmeQuickStartIsTheExampleThePackageBuilds() throws {
        let snippet = try Self.readmeQuickStart()
        let example = Self.root.appendingPathComponent("Examples/QuickStart/main.swift")
        let built = try String(contentsOf: example, encoding: .utf8)
        #expect(snippet == built, """
            README's quick start must be byte-identical to Examples/QuickStart/main.swift, which \
            `swift build` compiles (target quick-start-example): copy one into the other
            """)
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#"name: "quick-start-example""#) && manifest.contains(#"path: "Examples/QuickStart""#))
        #expect(!snippet.contains("!."), "no force unwraps in the quick start")
    }

    /// The first ```swift block under `heading` in a Markdown file of the repository.
    static func swiftBlock(in file: String, under heading: String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: heading), "\(file) has a \"\(heading)\" heading")
        let open = try #require(lines.indices.dropFirst(start).first { lines[$0] == "```swift" }, "a ```swift block follows it in \(file)")
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"), "the block is closed in \(file)")
        return lines[(open + 1)..<close].joined(separator: "\n") + "\n"
    }

    @Test func theMainActorObservationExampleIsTheOneThePackageBuilds() throws {
        let built = try String(contentsOf: Self.root.appendingPathComponent("Examples/Observing/main.swift"), encoding: .utf8)
        for file in ["Docs/Observing.md", "Sources/OfflineStore/OfflineStore.docc/GettingStarted.md"] {
            let snippet = try Self.swiftBlock(in: file, under: "## Observing on the main actor")
            #expect(snippet == built, """
                \(file)'s main-actor example must be byte-identical to Examples/Observing/main.swift, which \
                `swift build` compiles (target observing-example): copy one into the other
                """)
        }
        #expect(built.contains("@MainActor") && built.contains("withObservationTracking"))
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#"name: "observing-example""#) && manifest.contains(#"path: "Examples/Observing""#))
    }

    @Test func theBackgroundTaskExampleIsTheOneThePackageBuilds() throws {
        let built = try String(contentsOf: Self.root.appendingPathComponent("Examples/BackgroundSync/BackgroundSync.swift"),
                               encoding: .utf8)
        let snippet = try Self.swiftBlock(in: "Docs/ApplePlatforms.md", under: "## Background sync within a budget")
        #expect(snippet == built, """
            Docs/ApplePlatforms.md's background task must be byte-identical to Examples/BackgroundSync/BackgroundSync.swift, \
            which `swift build` compiles (target BackgroundSyncExample): copy one into the other
            """)
        // The order that lets the background sync write, and the Apple-only part kept out of Linux builds.
        #expect(built.contains("store.resume(postingDatabaseNotification: true)")
                && built.contains("await store.suspend(postingDatabaseNotification: true)"))
        #expect(built.contains("#if canImport(BackgroundTasks)"))
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#"name: "BackgroundSyncExample""#) && manifest.contains(#"path: "Examples/BackgroundSync""#))
    }
}
