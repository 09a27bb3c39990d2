import Foundation
import OfflineStoreFuzzing
import Testing

/// Every committed fuzz input (`Fixtures/fuzz/<target>/`, the crash reproducers in its
/// `regressions/`) runs through its target's property function, the one libFuzzer runs under
/// `scripts/fuzz`: a bug the fuzzer found and was fixed stays fixed without libFuzzer
/// (Docs/Reliability.md, "Fuzzing").
@Suite("Fuzz corpus replay")
struct FuzzCorpusReplayTests {
    static let corpus = DocumentationTests.root.appendingPathComponent("Fixtures/fuzz")

    /// The files under `folder`, recursively, by path.
    static func inputs(under folder: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return (walker?.allObjects as? [URL] ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    /// The checks run on a thread of their own (``offPool(_:)``): some wait for async work
    /// (the REST targets' backends, the CLI target's store), which must not block the pool.
    @Test(arguments: FuzzTarget.all.map(\.name))
    func everyCommittedInputKeepsItsTargetsProperties(_ name: String) async throws {
        let target = try #require(FuzzTarget.named(name))
        let inputs = Self.inputs(under: Self.corpus.appendingPathComponent(name))
        #expect(inputs.count >= 5, "\(name) has a seed corpus: \(inputs.count) files")
        let violations = try await offPool {
            try inputs.compactMap { input -> String? in
                do { try target.check([UInt8](Data(contentsOf: input))) } catch let violation as PropertyViolation {
                    return "\(input.path.dropFirst(Self.corpus.path.count + 1)): \(violation)"
                }
                return nil
            }
        }
        #expect(violations.isEmpty, "\(name): \(violations.joined(separator: "\n"))")
    }

    @Test func everyCorpusFolderIsATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
            .filter { !$0.hasSuffix(".dict") }
        #expect(Set(folders) == Set(FuzzTarget.all.map(\.name)))
    }
}
