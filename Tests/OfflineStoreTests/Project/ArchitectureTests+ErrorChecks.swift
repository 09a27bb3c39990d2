import Foundation
import Testing

/// A test that expects an error names the code it expects: a check that accepts any error
/// (or any code) still passes when the call fails for another reason, such as a busy store
/// or a typo in a collection name. Checked on the sources of both test targets.
extension ArchitectureTests {
    /// The rare checks that may accept an error without naming its code, each with why.
    static let allowedOpenErrorChecks: [(file: String, snippet: String, why: String)] = [
        ("SecurityTests.swift", "_ = try? await store.flush()",
         "the paths of the requests are under test; whether Kinto accepts each hostile id is not"),
        ("WebDriver.swift", "} catch {}",
         "a browser-driver helper that clicks again when the view has not shown yet; not a check"),
        ("CLIObservationAcrossProcessesTests.swift", "catch {}",
         "forwards a stream to the test, which checks its values; the stream's end is the signal"),
    ]

    /// What counts as accepting an error without naming it.
    static let openErrorChecks: [(what: String, pattern: String)] = [
        ("a check for any error", #"throws:\s*\(?(any |some )?Error\)?\.self"#),
        ("an empty catch", #"catch\s*\{\s*\}"#),
        ("a store call whose error is discarded", #"_ = try\? (await )?[\w.]+\.(flush|refresh|sync|create|save|patch|replace|destroy|destroyAll)\("#),
    ]

    @Test func everyErrorCheckNamesTheCodeItExpects() throws {
        var offenders: [String] = [], checked = 0
        // The helper is the one place that catches any error (to name what came instead); this file spells the patterns.
        for file in try Self.testFiles() where !["ExpectStoreError.swift", "ArchitectureTests+ErrorChecks.swift"].contains(file.name) {
            let lines = Self.withoutComments(file.text).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let allowed = Self.allowedOpenErrorChecks.contains { file.name == $0.file && line.contains($0.snippet) }
                for check in Self.openErrorChecks where line.contains(try Regex(check.pattern)) && !allowed {
                    offenders.append("\(file.name):\(index + 1): \(check.what)")
                }
                // `#expect(throws: OfflineStoreError.self)` only with its result's code checked.
                guard line.contains("throws: OfflineStoreError.self") else { continue }
                checked += 1
                if !Self.checksTheCode(of: line, followedBy: lines[(index + 1)...].prefix(40)) {
                    offenders.append("\(file.name):\(index + 1): an OfflineStoreError of any code (use expectStoreError(.code))")
                }
            }
        }
        #expect(checked >= 50, "the walk found the error checks: \(checked)")
        #expect(offenders.isEmpty, "checks that accept any error:\n\(offenders.joined(separator: "\n"))")
    }

    /// Whether a `#expect(throws: OfflineStoreError.self)` on `line` binds its result to a
    /// name whose `.code` the following lines of the same test compare.
    static func checksTheCode(of line: String, followedBy rest: ArraySlice<String>) -> Bool {
        guard let bound = line.firstMatch(of: #/(?:let|var)\s+(\w+)\s*=\s*(?:try\s+)?(?:await\s+)?#(?:expect|require)\(throws:/#)
        else { return false }
        let name = String(bound.output.1)
        for next in rest {
            if next.contains(#/^\s*(@Test|func )/#) { return false }
            if next.contains("\(name)?.code") || next.contains("\(name).code") || next.contains("\(name)!.code") { return true }
        }
        return false
    }

    /// The scan finds what it looks for: each kind of open check is caught, a checked one is not.
    @Test func theErrorCheckScanFindsOpenChecks() throws {
        let open = ["#expect(throws: (any Error).self) { try f() }", "} catch {}", "_ = try? await store.flush()",
                    "_ = try? await todos.patch(\"a\", [:])"]
        for line in open {
            #expect(try Self.openErrorChecks.contains { line.contains(try Regex($0.pattern)) }, "\(line)")
        }
        #expect(try !Self.openErrorChecks.contains { "_ = try? await inspector.stop()".contains(try Regex($0.pattern)) })
        #expect(!Self.checksTheCode(of: "await #expect(throws: OfflineStoreError.self) { try await f() }", followedBy: []))
        #expect(Self.checksTheCode(of: "let error = await #expect(throws: OfflineStoreError.self) { try await f() }",
                                   followedBy: ["#expect(error?.code == .offline)"]))
        #expect(!Self.checksTheCode(of: "let error = #expect(throws: OfflineStoreError.self) { try f() }",
                                    followedBy: ["#expect(error?.message == \"x\")", "@Test func next() {", "#expect(error?.code == .x)"]))
    }
}
