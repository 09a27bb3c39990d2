/// The lexical pieces that ``JSONParser`` and ``CanonicalJSON`` share, so that both read
/// exactly the same strings and numbers and refuse the same malformed text.
enum JSONLexing {
    /// Decodes the rest of a string from `index` (just after its opening quote, or at the
    /// first escape) up to and past its closing quote, appending the decoded bytes to
    /// `buffer`. The bytes are not checked as UTF-8 here; `start` (the opening quote) names
    /// an unterminated string.
    ///
    /// - Throws: ``JSONError`` for control characters, invalid escapes, unpaired
    ///   surrogates and a missing closing quote.
    static func decodeString(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, start: Int,
                             into buffer: inout [UInt8]) throws {
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if b < 0x20 { throw JSONError("control character in string", at: index) }
            if b != UInt8(ascii: "\\") { buffer.append(b); index += 1; continue }
            index += 1
            guard index < bytes.count else { break }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(bytes, &index)
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw JSONError("unpaired surrogate", at: index) }
                    index += 2
                    let low = try hex4(bytes, &index)
                    guard (0xDC00...0xDFFF).contains(low) else { throw JSONError("unpaired surrogate", at: index) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw JSONError("unpaired surrogate", at: index)
                }
                guard let u = Unicode.Scalar(scalar), let encoded = UTF8.encode(u) else {
                    throw JSONError("invalid \\u escape", at: index)
                }
                buffer.append(contentsOf: encoded)
            default:
                throw JSONError("invalid escape", at: index - 1)
            }
        }
        throw JSONError("unterminated string", at: start)
    }

    /// Reads four hex digits of a `\u` escape.
    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) throws -> UInt32 {
        guard bytes.count - index >= 4 else { throw JSONError("truncated \\u escape", at: index) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw JSONError("invalid hex digit in \\u escape", at: index)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Steps over one number from `index` (its first byte, `-` or a digit); returns whether
    /// it is an integer (no fraction, no exponent).
    ///
    /// - Throws: ``JSONError`` for a malformed number (leading zero, empty fraction or exponent).
    static func scanNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) throws -> Bool {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw JSONError("invalid number", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw JSONError("leading zero in number", at: start) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw JSONError("invalid fraction", at: index) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw JSONError("invalid exponent", at: index) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return isInteger
    }

    @inline(__always) private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
