import Foundation

/// SHA-256 written apart from the library's `SHA256`, to check the hashes the library
/// computes while it streams a blob: FIPS 180-4 as printed (the whole message padded first,
/// then one 64-byte block after another), where the library's is fed in pieces and pads at
/// the end. No system tool is asked (macOS has no `sha256sum`; Linux's Foundation has no
/// CryptoKit), so a check runs the same on both; the NIST example vectors pin this one
/// (`ReferenceSHA256Tests`).
enum ReferenceSHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The digest of a file's bytes, as 64 lowercase hex digits.
    static func hex(ofFile url: URL) throws -> String {
        hex(of: [UInt8](try Data(contentsOf: url)))
    }

    /// The digest of `message`, as 64 lowercase hex digits.
    static func hex(of message: [UInt8]) -> String {
        // §5.1.1: a 1 bit, zeros up to 56 bytes past a multiple of 64, the length in bits.
        var padded = message
        padded.append(0x80)
        padded += [UInt8](repeating: 0, count: (120 - padded.count % 64) % 64)
        let bits = UInt64(message.count) &* 8
        padded += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }

        var hash: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var schedule = [UInt32](repeating: 0, count: 64)
        padded.withUnsafeBufferPointer { bytes in
            for block in stride(from: 0, to: bytes.count, by: 64) {
                // §6.2.2: the message schedule, then 64 rounds.
                for t in 0..<16 {
                    let i = block + 4 * t
                    schedule[t] = UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
                }
                for t in 16..<64 {
                    let s0 = rotate(schedule[t - 15], 7) ^ rotate(schedule[t - 15], 18) ^ (schedule[t - 15] >> 3)
                    let s1 = rotate(schedule[t - 2], 17) ^ rotate(schedule[t - 2], 19) ^ (schedule[t - 2] >> 10)
                    schedule[t] = schedule[t - 16] &+ s0 &+ schedule[t - 7] &+ s1
                }
                var (a, b, c, d, e, f, g, h) = (hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7])
                for t in 0..<64 {
                    let t1 = h &+ (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) &+ ((e & f) ^ (~e & g))
                        &+ roundConstants[t] &+ schedule[t]
                    let t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                }
                for (i, word) in [a, b, c, d, e, f, g, h].enumerated() { hash[i] = hash[i] &+ word }
            }
        }
        return hash.map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }.joined()
    }

    private static func rotate(_ word: UInt32, _ count: UInt32) -> UInt32 {
        word >> count | word << (32 - count)
    }
}
