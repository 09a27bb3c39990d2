extension JSONValue {
    /// Compact JSON text with object keys sorted, so equal values give equal text.
    ///
    /// Doubles always carry a fraction or exponent (`1.0`), so they read back as
    /// doubles. A non-finite double, which JSON cannot hold, is written as `null`.
    public func serialized() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact JSON text of the value to a byte buffer.
    public func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): JSONValue.writeInteger(i, into: &out)
        case .double(let d):
            guard d.isFinite else { out.append(contentsOf: "null".utf8); return }
            out.append(contentsOf: d.description.utf8)
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, item) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            // Sorting the pairs, not the keys, spares a hash lookup per member.
            for (i, member) in o.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends the decimal digits of `i` (the text of `String(i)`) without making a `String`.
    static func writeInteger(_ i: Int64, into out: inout [UInt8]) {
        var magnitude = i.magnitude
        if i < 0 { out.append(UInt8(ascii: "-")) }
        if magnitude < 10 { out.append(UInt8(ascii: "0") + UInt8(magnitude)); return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            while magnitude > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape: scan their bytes in place and copy them whole (iterating
        // `utf8` through `contains(where:)` cost about 250 instructions per short string).
        let copied = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for b in bytes where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(0x5C); out.append(b)
            case UInt8(ascii: "\\"): out.append(0x5C); out.append(b)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
