import Foundation
import Testing

/// The platform boundary (Docs/ApplePlatforms.md): every call whose spelling or behaviour
/// differs between Darwin, Glibc and Musl lives in the platform folder, and nothing anywhere
/// uses an SPI or an underscored symbol. Checked on every Swift file of the sources, the
/// tests, the examples and the benchmarks, so a test cannot pass on one platform by
/// finding nothing to check.
extension ArchitectureTests {
    /// The folders allowed to hold platform code: the platform layer (and its part only the tests and
    /// probes use), and the benchmark
    /// package's own (a package of its own cannot see the layer's `package` names).
    static let platformFolders = ["Sources/OfflineStorePlatform/", "Sources/OfflineStoreTestPlatform/", "Benchmarks/Sources/offline-store-bench/Platform/"]

    /// This file, which spells what it forbids.
    static let rulesFile = "Tests/OfflineStoreTests/Project/ArchitectureTests+Platform.swift"

    /// Every Swift file of the repository outside build products (and but this one), by
    /// path from the root, with its text stripped of comments.
    static func repositoryFiles() throws -> [(path: String, code: String)] {
        let root = DocumentationTests.root
        var files: [(String, String)] = []
        for top in ["Sources", "Tests", "Examples", "Benchmarks"] {
            let folder = root.appendingPathComponent(top)
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension == "swift" {
                let path = String(url.path.dropFirst(root.path.count + 1))
                guard path != rulesFile, !path.split(separator: "/").contains(where: { $0.hasPrefix(".build") }) else { continue }
                files.append((path, withoutComments(try String(contentsOf: url, encoding: .utf8))))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// The text without `//` comments (whole lines, and the tail after ` // `).
    static func withoutComments(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            if line.drop(while: { $0 == " " }).hasPrefix("//") { return "" }
            if let range = line.range(of: " // ") { return line[..<range.lowerBound] }
            return line
        }.joined(separator: "\n")
    }

    /// What only the platform folders may spell: C library modules and their qualified
    /// names, compile-time platform branches, and the calls and constants that differ.
    static let platformOnly: [(name: String, pattern: String)] = [
        ("a C library module", #"\bimport\s+(Glibc|Darwin|Musl)\b|canImport\((Glibc|Darwin|Musl)\)"#),
        ("a qualified C library name", #"\b(Glibc|Darwin|Musl)\.[a-z_]"#),
        ("a platform branch", #"#(if|elseif)\s[^\n]*\bos\("#),
        ("/proc", #"/proc\b"#),
        ("a socket type", #"\bSOCK_STREAM\b|\bSOCK_DGRAM\b"#),
        ("a SIGPIPE socket option", #"\bMSG_NOSIGNAL\b|\bSO_NOSIGPIPE\b"#),
        ("a spawn call", #"\bposix_spawn"#),
        ("a system call", #"(?<![\w.])(?<!func )(flock|fsync|fcntl|ioctl|waitpid|sigaction|sigemptyset|socket|setsockopt|getsockname|accept|recv|pipe|getpid|getuid|isatty|_exit|getrusage|dlsym|pread|pwrite|ftruncate|usleep|strerror)\("#),
    ]

    @Test func platformCodeLivesInThePlatformFolderOnly() throws {
        let files = try Self.repositoryFiles()
        #expect(files.count > 300, "the walk found the files: \(files.count)")
        #expect(files.contains { $0.path.hasPrefix("Sources/OfflineStorePlatform/") })
        var offenders: [String] = []
        for file in files where !Self.platformFolders.contains(where: file.path.hasPrefix) {
            for (name, pattern) in Self.platformOnly where Self.matches(pattern, file.code) {
                offenders.append("\(file.path): \(name)")
            }
        }
        #expect(offenders.isEmpty, "platform code outside \(Self.platformFolders):\n\(offenders.joined(separator: "\n"))")
    }

    /// A call of an underscored function, or an underscored member.
    static let underscoredSymbol = #"(?<![\w."])_[A-Za-z]\w*\s*\(|\.\s*_[A-Za-z]\w*"#

    @Test func noSPIAndNoUnderscoredSymbol() throws {
        var offenders: [String] = []
        for file in try Self.repositoryFiles() {
            // `@_spi`, `@_exported`, `@_implementationOnly`, `@_silgen_name`…: anywhere.
            if Self.matches(#"@_[A-Za-z]"#, file.code) { offenders.append("\(file.path): an underscored attribute") }
            // A call of an underscored function or an underscored member (`_forEachFieldWithKeyPath(`,
            // `x._value`): outside the platform folder, whose C names (`_exit`, `__sigaction_u`) are the C library's.
            if !Self.platformFolders.contains(where: file.path.hasPrefix),
               Self.matches(Self.underscoredSymbol, file.code) {
                offenders.append("\(file.path): an underscored symbol")
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }

    /// The rules find what they are meant to find (so an empty result means something).
    @Test func thePlatformRulesCatchWhatTheyForbid() {
        let samples = [
            "#if canImport(Glibc)\nimport Glibc\n#endif",
            "let n = Glibc.read(fd, &b, 1)",
            "#if os(Linux)\nlet x = 1\n#endif",
            "let s = try String(contentsOfFile: \"/proc/locks\")",
            "let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)",
            "let flags = Int32(MSG_NOSIGNAL)",
            "posix_spawn_file_actions_init(&actions)",
            "if flock(fd, LOCK_EX) == 0 {}",
        ]
        for sample in samples {
            #expect(Self.platformOnly.contains { Self.matches($0.pattern, sample) }, "not caught: \(sample)")
        }
        let allowed = ["child.kill()", "try await send(request)", "func pipe() {}", "fcntl.flock(f)", "let t = \"_since\""]
        for sample in allowed {
            #expect(!Self.platformOnly.contains { Self.matches($0.pattern, sample) }, "wrongly caught: \(sample)")
        }
        #expect(Self.matches(#"@_[A-Za-z]"#, "@_spi(Reflection) import Swift"))
        #expect(Self.matches(Self.underscoredSymbol, "_ = _forEachFieldWithKeyPath(of: M.self) { _, _ in true }"))
        #expect(!Self.matches(Self.underscoredSymbol, "_ = value; let (_, b) = pair; let t = \"_limit\""))
        #expect(Self.withoutComments("let a = 1 // /proc/self\n// import Glibc") == "let a = 1\n")
    }

    static func matches(_ pattern: String, _ text: String) -> Bool {
        // A pattern that does not compile is a bug in this file: trap rather than find nothing.
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
