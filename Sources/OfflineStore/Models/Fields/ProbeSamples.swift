import Foundation

/// The invented values a ``FieldProbe`` decodes a model from.
///
/// Every field the model's decoder asks for gets a *code* (1, 2, 3 … in the order its
/// path is first seen), and its value says that code: a string `"probe7"`, the integer 7,
/// the double 7.5, a date 7 hours after a fixed instant, and so on. Booleans (and
/// `CaseIterable` types) have too few values for that, so the probe decodes the model
/// several times (*rounds*) and a boolean's value in round `r` is bit `r` of its code:
/// across the rounds each field's values spell its code. Codes start at 1 and the rounds
/// are enough for `2^rounds - 1` to exceed every code, so a property that is always false
/// or always true (a computed one) never spells a field's code.
enum ProbeSamples {
    /// A value of `T` for the field with `code` in `round`, when `T` is one the probe makes
    /// itself (primitives, Foundation types, ``JSONValue``, `CaseIterable` types); nil when
    /// `T` must decode itself from the probe's containers.
    static func sample<T>(_ type: T.Type, code: Int, round: Int) -> T? {
        if let value = primitive(type, code: code, round: round) { return value }
        if let value = foundation(type, code: code) { return value }
        if let cases = type as? any CaseIterable.Type { return member(of: cases, code: code, round: round) as? T }
        return nil
    }

    /// Bit `round` of `code`: a boolean field's value in that round.
    static func bit(_ code: Int, round: Int) -> Bool { (code >> round) & 1 == 1 }

    /// The rounds needed for `codes` fields: the fewest whose all-ones pattern exceeds every code.
    static func rounds(forCodes codes: Int) -> Int {
        max(1, Int.bitWidth - (codes + 1).leadingZeroBitCount)
    }

    private static func primitive<T>(_ type: T.Type, code: Int, round: Int) -> T? {
        switch type {
        case is String.Type: return "probe\(code)" as? T
        case is Bool.Type: return bit(code, round: round) as? T
        case is Double.Type: return (Double(code) + 0.5) as? T
        case is Float.Type: return (Float(code) + 0.5) as? T
        case is Int.Type: return code as? T
        case is Int8.Type: return Int8(truncatingIfNeeded: code) as? T
        case is Int16.Type: return Int16(truncatingIfNeeded: code) as? T
        case is Int32.Type: return Int32(truncatingIfNeeded: code) as? T
        case is Int64.Type: return Int64(code) as? T
        case is UInt.Type: return UInt(code) as? T
        case is UInt8.Type: return UInt8(truncatingIfNeeded: code) as? T
        case is UInt16.Type: return UInt16(truncatingIfNeeded: code) as? T
        case is UInt32.Type: return UInt32(truncatingIfNeeded: code) as? T
        case is UInt64.Type: return UInt64(code) as? T
        default: return nil
        }
    }

    private static func foundation<T>(_ type: T.Type, code: Int) -> T? {
        switch type {
        case is Date.Type: return Date(timeIntervalSince1970: 1_600_000_000 + Double(code) * 3600) as? T
        case is Decimal.Type: return (Decimal(code) + Decimal(sign: .plus, exponent: -2, significand: 25)) as? T
        case is UUID.Type:
            let digits = String(code)
            let tail = String(repeating: "0", count: max(0, 12 - digits.count)) + digits.suffix(12)
            return UUID(uuidString: "00000000-0000-4000-8000-" + tail) as? T
        case is URL.Type: return URL(string: "https://probe.invalid/\(code)") as? T
        case is Data.Type: return Data("probe\(code)".utf8) as? T
        case is JSONValue.Type: return JSONValue.string("probe\(code)") as? T
        default: return nil
        }
    }

    /// One of a `CaseIterable` type's values: the first or the second, by the code's bit.
    private static func member<C: CaseIterable>(of type: C.Type, code: Int, round: Int) -> C? {
        let all = Array(type.allCases)
        guard !all.isEmpty else { return nil }
        return all[(bit(code, round: round) ? 1 : 0) % all.count]
    }
}
