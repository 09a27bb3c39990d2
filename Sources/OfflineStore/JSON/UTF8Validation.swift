/// Turning bytes into a `String` only when they are well-formed UTF-8, on every platform the
/// package supports.
///
/// `String(validating:as:)` does this in one pass, but Apple platforms have it only from
/// macOS 15, iOS 18, tvOS 18, watchOS 11 and visionOS 2; below those the store checks the
/// bytes itself and then decodes them, which gives the same answer (`UTF8ValidationTests`
/// compares the two on every input it tries).
package enum UTF8Validation {
    /// The string the bytes spell, or nil when they are not well-formed UTF-8.
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return String(validating: bytes, as: UTF8.self)
        }
        return checkedString(bytes)
    }

    /// The string the bytes spell, or nil when they are not well-formed UTF-8.
    package static func string(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { string($0) }
    }

    /// The path below the platform versions that have `String(validating:as:)`: check, then
    /// decode (decoding alone would replace bad bytes with U+FFFD instead of refusing them).
    /// Called directly by the tests, since Linux always takes the other path.
    package static func checkedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        isValid(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Whether the bytes are well-formed UTF-8 (Unicode's table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF), which is what `String(validating:as:)` accepts.
    package static func isValid(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = s.count
        while i < n {
            let b0 = s[i]
            if b0 < 0x80 { i += 1; continue }
            let length: Int, lower: UInt8, upper: UInt8
            switch b0 {
            case 0xC2...0xDF: length = 2; lower = 0x80; upper = 0xBF
            case 0xE0: length = 3; lower = 0xA0; upper = 0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3; lower = 0x80; upper = 0xBF
            case 0xED: length = 3; lower = 0x80; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90; upper = 0xBF
            case 0xF1...0xF3: length = 4; lower = 0x80; upper = 0xBF
            case 0xF4: length = 4; lower = 0x80; upper = 0x8F
            default: return false
            }
            guard i + length <= n, (lower...upper).contains(s[i + 1]) else { return false }
            for k in 2..<max(2, length) where !(0x80...0xBF).contains(s[i + k]) { return false }
            i += length
        }
        return true
    }
}
