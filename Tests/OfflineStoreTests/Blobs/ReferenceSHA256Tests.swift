import Foundation
import Testing
@testable import OfflineStore

/// The independent SHA-256 the blob tests check files with: NIST's example vectors (FIPS
/// 180-2, appendix B: one block, two blocks, a million `a`s), then agreement with the
/// library's streamed hash at every padding boundary.
@Suite struct ReferenceSHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func matchesNISTVectors(_ vector: (String, String)) {
        #expect(ReferenceSHA256.hex(of: Array(vector.0.utf8)) == vector.1)
    }

    @Test func matchesTheMillionAVector() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(ReferenceSHA256.hex(of: message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func agreesWithTheLibrarysStreamedHashAcrossPaddingBoundaries() {
        let data = BlobTestSupport.bytes(300, seed: 7)
        for length in 0...data.count {
            let prefix = data.prefix(length)
            var streamed = SHA256()
            for piece in stride(from: 0, to: length, by: 17) { streamed.update(prefix.dropFirst(piece).prefix(17)) }
            #expect(ReferenceSHA256.hex(of: [UInt8](prefix)) == streamed.hexDigest(), "length \(length)")
        }
    }
}
