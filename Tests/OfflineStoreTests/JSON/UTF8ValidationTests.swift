import Testing
@testable import OfflineStore
import OfflineStoreTesting

/// The store's own UTF-8 check, taken below macOS 15 / iOS 18, must accept exactly what
/// `String(validating:as:)` accepts and give the same string. Linux always has the latter, so
/// the fallback is called directly here.
@Suite("UTF8Validation: the fallback below macOS 15 / iOS 18 agrees with String(validating:as:)")
struct UTF8ValidationTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func agrees(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            UTF8Validation.checkedString(buffer) == String(validating: buffer, as: UTF8.self)
        }
    }

    /// Every byte value as lead byte, followed by continuation bytes at the edges of every
    /// range of Unicode's table 3-7 (overlong forms, surrogates, above U+10FFFF, truncation).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test("every lead byte with edge continuations")
    func edges() {
        let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        var checked = 0
        for lead in UInt8.min...UInt8.max {
            #expect(agrees([lead]), "\([lead])")
            for b1 in edges {
                #expect(agrees([lead, b1]), "\([lead, b1])")
                for b2 in edges {
                    #expect(agrees([lead, b1, b2]), "\([lead, b1, b2])")
                    for b3 in edges where lead >= 0xF0 {
                        #expect(agrees([lead, b1, b2, b3, 0x41]), "\([lead, b1, b2, b3])")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 16 * edges.count * edges.count * edges.count)
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test("random byte strings, mostly well-formed text with damage")
    func random() {
        var generator = SimulationRandom(seed: 0x5EED_0007)
        let words = ["a", "é", "€", "𝄞", "中", "\u{7F}", "\u{0}"].map { Array($0.utf8) }
        var refused = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                bytes += words[Int.random(in: 0..<words.count, using: &generator)]
            }
            if !bytes.isEmpty, Bool.random(using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if String(validating: bytes, as: UTF8.self) == nil { refused += 1 }
            #expect(agrees(bytes), "\(bytes)")
        }
        // Both kinds of input were tried.
        #expect(refused > 1_000 && refused < 19_000)
    }

    @Test("well-formed text gives the same string on both paths")
    func text() throws {
        let text = "naïve café 𝄞 中文 \u{10FFFF}"
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBufferPointer(UTF8Validation.checkedString) == text)
        #expect(UTF8Validation.string(bytes) == text)
        #expect(UTF8Validation.string([0xED, 0xA0, 0x80]) == nil)   // a surrogate
        #expect(UTF8Validation.string([0xC0, 0xAF]) == nil)         // an overlong "/"
    }
}
