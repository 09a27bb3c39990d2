import Foundation

/// How dates are written in a model's JSON.
public enum ModelDateEncoding: Sendable, Hashable {
    /// ISO 8601 text in UTC with milliseconds, e.g. `"2026-11-24T12:47:03.120Z"` (the
    /// default). Such strings sort in time order, so range queries on dates work.
    case iso8601
    /// Seconds since 1 January 1970 UTC, as a JSON number.
    case secondsSince1970
    /// Whole milliseconds since 1 January 1970 UTC, as a JSON integer.
    case millisecondsSince1970
}

/// The options ``ModelEncoder`` and ``ModelDecoder`` share.
///
/// The encoding, for every model and for ``JSONValue/init(encoding:coding:)``:
///
/// | Swift | JSON |
/// |---|---|
/// | `Int`, `Int64`, other integers | an integer |
/// | `Double`, `Float` | a number that stays a double (`1.0` is written `1.0`) |
/// | `Bool`, `String` | a boolean, a string |
/// | `Date` | ``ModelDateEncoding`` (ISO 8601 with milliseconds by default) |
/// | `Decimal` | a number: an integer when whole and within 64 bits, else a double whose shortest text is the decimal's digits; a decimal that a double cannot carry exactly (more than 15 significant digits) is refused with an `EncodingError` rather than rounded |
/// | `URL` | its absolute string |
/// | `Data` | Base64 text |
/// | `UUID`, `String`/`Int` raw-value enums | their own `Codable` form: a string, the raw value |
/// | `nil` optional | absent (synthesized `Codable` skips it) or `null` |
/// | nested structs, arrays, dictionaries with string keys | objects and arrays |
///
/// Decoding is as lenient as `JSONDecoder`: an integer decodes into a `Double`, a whole
/// double into an `Int`, and a `Decimal` also decodes from a numeric string.
public struct ModelCoding: Sendable, Hashable {
    /// How dates are written and read.
    public var dateEncoding: ModelDateEncoding

    /// Options with ISO 8601 dates by default.
    public init(dateEncoding: ModelDateEncoding = .iso8601) {
        self.dateEncoding = dateEncoding
    }

    // MARK: Dates

    /// ISO 8601 without fractional seconds; milliseconds are written and read here
    /// (rounded, not truncated, so a date's nearest millisecond survives a round trip).
    private static let isoSecondsFormat = Date.ISO8601FormatStyle()

    func json(_ date: Date) -> JSONValue {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded())
        switch dateEncoding {
        case .iso8601:
            let (seconds, fraction) = ms.quotientAndRemainder(dividingBy: 1000)
            let whole = fraction < 0 ? seconds - 1 : seconds
            let milliseconds = fraction < 0 ? fraction + 1000 : fraction
            var text = Self.isoSecondsFormat.format(Date(timeIntervalSince1970: Double(whole)))
            if text.hasSuffix("Z") { text.removeLast() }
            let digits = String(milliseconds)
            return .string(text + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z")
        case .secondsSince1970: return .double(date.timeIntervalSince1970)
        case .millisecondsSince1970: return .int(ms)
        }
    }

    func date(_ value: JSONValue, codingPath: [any CodingKey]) throws -> Date {
        switch (dateEncoding, value) {
        case (.iso8601, .string(let text)):
            if let date = Self.parseISO8601(text) { return date }
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "'\(text)' is not an ISO 8601 date"))
        case (.secondsSince1970, _):
            if let seconds = value.doubleValue { return Date(timeIntervalSince1970: seconds) }
        case (.millisecondsSince1970, _):
            if let ms = value.doubleValue { return Date(timeIntervalSince1970: ms / 1000) }
        default: break
        }
        throw DecodingError.typeMismatch(Date.self, .init(codingPath: codingPath, debugDescription: "expected a date, got \(value.typeName)"))
    }

    /// Parses ISO 8601 date-time text with or without fractional seconds.
    static func parseISO8601(_ text: String) -> Date? {
        guard let dot = text.firstIndex(of: "."), let t = text.firstIndex(of: "T"), dot > t else {
            return try? isoSecondsFormat.parse(text)
        }
        let digitsEnd = text[text.index(after: dot)...].firstIndex { !$0.isASCII || !$0.isNumber } ?? text.endIndex
        let digits = text[text.index(after: dot)..<digitsEnd]
        guard !digits.isEmpty, let fraction = Double("0." + digits),
              let whole = try? isoSecondsFormat.parse(String(text[..<dot] + text[digitsEnd...])) else { return nil }
        return Date(timeIntervalSince1970: whole.timeIntervalSince1970 + fraction)
    }

    // MARK: Decimals

    static func json(_ decimal: Decimal, codingPath: [any CodingKey]) throws -> JSONValue {
        let text = decimal.description
        if let integer = Int64(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite, Decimal(string: double.description) == decimal else {
            throw EncodingError.invalidValue(decimal, .init(codingPath: codingPath,
                debugDescription: "\(text) has more significant digits than a JSON number of this store keeps exactly; store it as a String"))
        }
        return .double(double)
    }

    static func decimal(_ value: JSONValue, codingPath: [any CodingKey]) throws -> Decimal {
        switch value {
        case .int(let i): return Decimal(i)
        case .double(let d): if let decimal = Decimal(string: d.description) { return decimal }
        case .string(let s): if let decimal = Decimal(string: s) { return decimal }
        default: break
        }
        throw DecodingError.typeMismatch(Decimal.self, .init(codingPath: codingPath, debugDescription: "expected a number, got \(value.typeName)"))
    }
}
