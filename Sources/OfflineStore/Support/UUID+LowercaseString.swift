import Foundation

extension UUID {
    /// The UUID as lowercase hex with dashes (`uuidString.lowercased()`), built directly:
    /// Foundation formats `uuidString` with `sprintf` and then lowercasing copies it
    /// again, about 8 k instructions of every edit's idempotency key (callgrind).
    var lowercaseString: String {
        let hex = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var n = 0
                for (i, byte) in bytes.enumerated() {
                    if i == 4 || i == 6 || i == 8 || i == 10 { out[n] = UInt8(ascii: "-"); n += 1 }
                    out[n] = hex[Int(byte >> 4)]
                    out[n + 1] = hex[Int(byte & 0xF)]
                    n += 2
                }
                return n
            }
        }
    }
}
