import Foundation
@testable import OfflineStore
import OfflineStoreTesting
import Testing

/// The OData readers on damaged input: every cut of the test server's answers and seeded
/// random byte changes give a value or an ``OfflineStoreError`` `badResponse`, never another
/// error and never a crash. (These readers are pure functions from bytes, so a fuzzer can
/// drive them the same way.)
@Suite("OData readers on damaged input")
struct ODataParserRobustnessTests {
    /// Bytes that matter to the formats: structure, quotes, escapes, and a few others.
    static let alphabet = Array(#"{}[]<>/"\:,=@'!-. 0aZ"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF]

    /// Every prefix of `sample`, then `rounds` copies with one to four bytes changed.
    static func damaged(_ sample: String, rounds: Int, seed: UInt64) -> [[UInt8]] {
        let bytes = Array(sample.utf8)
        var inputs = (0..<bytes.count).map { Array(bytes[..<$0]) }
        // The package's seeded generator (SplitMix64), so a failure names an input that can be replayed.
        var generator = SimulationRandom(seed: seed)
        for _ in 0..<rounds {
            var copy = bytes
            for _ in 0...Int.random(in: 0...3, using: &generator) {
                let at = Int.random(in: 0..<copy.count, using: &generator)
                copy[at] = alphabet.randomElement(using: &generator)!
            }
            inputs.append(copy)
        }
        return inputs
    }

    /// Runs `read` on each input; returns how many were read as values. Records any error
    /// that is not `badResponse`.
    static func check(_ inputs: [[UInt8]], _ read: (Data) throws -> Void) -> Int {
        var values = 0
        for input in inputs {
            do {
                try read(Data(input))
                values += 1
            } catch let error as OfflineStoreError where error.code == .badResponse {
                continue
            } catch {
                Issue.record("\(error) for \(String(decoding: input, as: UTF8.self))")
            }
        }
        return values
    }

    @Test func pages() {
        var values = 0
        for (index, sample) in [ODataSamples.deltaModePage, ODataSamples.deltaAnswer, ODataSamples.deltaAnswer40,
                                ODataSamples.plainModePage].enumerated() {
            values += Self.check(Self.damaged(sample, rounds: 400, seed: UInt64(index))) { _ = try ODataPage.read($0) }
        }
        #expect(values > 0, "some changes leave a page readable (a changed letter in a value)")
    }

    @Test func batchAnswers() {
        let requests = [ODataBatchTests.create, ODataBatchTests.stale]
        var values = 0
        for (index, sample) in [ODataSamples.deltaFailedGroup, ODataSamples.plainFailedGroup].enumerated() {
            values += Self.check(Self.damaged(sample, rounds: 400, seed: 10 + UInt64(index))) {
                _ = try ODataBatch.outcomes(of: $0, for: requests)
            }
        }
        #expect(values > 0)
    }

    @Test func metadataDocuments() {
        var values = 0
        for (index, sample) in [ODataSamples.fixtureMetadata, ODataSamples.aliasedMetadata].enumerated() {
            // Every 7th cut: each cut is a whole XML parse.
            let inputs = Self.damaged(sample, rounds: 300, seed: 20 + UInt64(index)).enumerated()
                .filter { $0.offset % 7 == 0 || $0.offset >= sample.utf8.count }.map(\.element)
            values += Self.check(inputs) { _ = try ODataMetadata.read($0) }
        }
        #expect(values > 0)
    }

    @Test func errorAnswersNeverThrowAndAlwaysSaySomething() {
        let samples = [#"{"error":{"code":"412","message":"The If-Match precondition failed."}}"#,
                       "<html><head><title>502</title></head></html>", "Unauthorized"]
        for (index, sample) in samples.enumerated() {
            for input in Self.damaged(sample, rounds: 300, seed: 30 + UInt64(index)) {
                #expect(!ODataErrorAnswer.read(Data(input), contentType: nil).summary.isEmpty)
            }
        }
    }
}
