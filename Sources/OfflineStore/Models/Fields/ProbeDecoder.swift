import Foundation

/// One decode of a model from invented values (see ``ProbeSamples``): records, for every
/// field path the model's `init(from:)` asks for, the JSON of the value it got.
final class ProbeRun {
    /// The round: which bit of each code booleans take.
    let round: Int
    /// Codes by field path, shared by every round so a path keeps its code.
    let codes: ProbeCodes
    let encoder: ModelEncoder
    /// The JSON of the value each field path got, as the model's own encoding writes it.
    private(set) var fed: [[String]: JSONValue] = [:]
    /// The top-level keys asked for, in order.
    private(set) var topLevelKeys: [String] = []

    init(round: Int, codes: ProbeCodes, coding: ModelCoding) {
        self.round = round
        self.codes = codes
        self.encoder = ModelEncoder(coding: coding)
    }

    func noteKey(_ path: [String]) {
        if path.count == 1, !topLevelKeys.contains(path[0]) { topLevelKeys.append(path[0]) }
    }

    func record(_ value: Any, at path: [String]) {
        guard let encodable = value as? any Encodable, let json = try? encoder.encode(encodable) else { return }
        fed[path] = json
    }

    func recordAbsent(at path: [String]) { fed[path] = .null }
}

/// Codes by field path, in the order paths are first seen (1, 2, 3 …).
final class ProbeCodes {
    private var byPath: [[String]: Int] = [:]
    var count: Int { byPath.count }

    func code(for path: [String]) -> Int {
        if let code = byPath[path] { return code }
        let code = byPath.count + 1
        byPath[path] = code
        return code
    }
}

/// Why a model cannot be probed: a field whose type refuses every value the probe tried.
struct ProbeFailure: Error, CustomStringConvertible {
    let path: [String]
    let type: Any.Type
    let underlying: any Error

    var description: String {
        let what = path.isEmpty ? "\(type)" : "'\(path.joined(separator: "."))' (\(type))"
        return "\(what) refuses the values the store tries (\(underlying))"
    }
}

/// A `Decoder` that invents every value it is asked for.
///
/// Containers hold one element (arrays) or one key (dictionaries), so that collections of
/// different fields differ; when a type refuses that, it is tried once more with empty
/// collections. An optional field whose type refuses every value decodes as nil.
struct ProbeDecoder: Decoder {
    let run: ProbeRun
    let path: [String]
    let codingPath: [any CodingKey]
    /// Arrays and dictionaries come out empty (the retry).
    let emptyCollections: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ProbeUnkeyedContainer(decoder: self, count: emptyCollections ? 0 : 1)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ProbeSingleValue(decoder: self)
    }

    /// The decoder of a child path.
    func child(_ key: String, codingKey: any CodingKey) -> ProbeDecoder {
        ProbeDecoder(run: run, path: path + [key], codingPath: codingPath + [codingKey], emptyCollections: false)
    }

    /// A value of `T` for this path: a sample, else `T`'s own decoding from this decoder
    /// (then once more with empty collections).
    ///
    /// - Throws: ``ProbeFailure`` when `T` refuses both.
    func produce<T: Decodable>(_ type: T.Type) throws -> T {
        let code = run.codes.code(for: path)
        if let sample = ProbeSamples.sample(type, code: code, round: run.round) { return sample }
        do { return try T(from: self) } catch {
            let empty = ProbeDecoder(run: run, path: path, codingPath: codingPath, emptyCollections: true)
            do { return try T(from: empty) } catch { throw ProbeFailure(path: path, type: type, underlying: error) }
        }
    }

    /// ``produce(_:)`` for a field, recording the JSON of what it got.
    func field<T: Decodable>(_ type: T.Type) throws -> T {
        run.noteKey(path)
        let value = try produce(type)
        run.record(value, at: path)
        return value
    }

    /// ``field(_:)`` for an optional field: nil when its type refuses every value.
    func optionalField<T: Decodable>(_ type: T.Type) -> T? {
        do { return try field(type) } catch {
            run.recordAbsent(at: path)
            return nil
        }
    }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    /// One key that the key type accepts (a dictionary's); none for a fixed set of keys.
    var allKeys: [Key] {
        guard !decoder.emptyCollections else { return [] }
        let code = decoder.run.codes.code(for: decoder.path)
        return Key(stringValue: "probe\(code)").map { [$0] } ?? []
    }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(type, genericForKey: key)
    }

    private func decode<T: Decodable>(_ type: T.Type, genericForKey key: Key) throws -> T {
        try decoder.child(key.stringValue, codingKey: key).field(type)
    }

    // The primitives have no default implementations in the protocol.
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, genericForKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type as String.Type, genericForKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type as Double.Type, genericForKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, genericForKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, genericForKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Int8.Type, genericForKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Int16.Type, genericForKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Int32.Type, genericForKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, genericForKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as UInt.Type, genericForKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as UInt8.Type, genericForKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type as UInt16.Type, genericForKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type as UInt32.Type, genericForKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type as UInt64.Type, genericForKey: key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        decoder.child(key.stringValue, codingKey: key).optionalField(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> {
        let child = decoder.child(key.stringValue, codingKey: key)
        decoder.run.noteKey(child.path)
        return try child.container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let child = decoder.child(key.stringValue, codingKey: key)
        decoder.run.noteKey(child.path)
        return try child.unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child("super", codingKey: ProbeIndexKey(stringValue: "super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let child = decoder.child(key.stringValue, codingKey: key)
        decoder.run.noteKey(child.path)
        return child
    }
}

private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: ProbeDecoder
    let count: Int?
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    init(decoder: ProbeDecoder, count: Int) {
        self.decoder = decoder
        self.count = count
    }

    private mutating func next() throws -> ProbeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "the probe's array has ended"))
        }
        defer { currentIndex += 1 }
        let key = ProbeIndexKey(intValue: currentIndex)
        return decoder.child(key.stringValue, codingKey: key)
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next().produce(type)
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().produce(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next().produce(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().produce(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().produce(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().produce(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().produce(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().produce(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().produce(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().produce(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().produce(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().produce(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().produce(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().produce(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().produce(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

/// A single value is the path's own sample.
private struct ProbeSingleValue: SingleValueDecodingContainer {
    let decoder: ProbeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.produce(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.produce(type) }
    func decode(_ type: String.Type) throws -> String { try decoder.produce(type) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.produce(type) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.produce(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.produce(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.produce(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.produce(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.produce(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.produce(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.produce(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.produce(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.produce(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.produce(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.produce(type) }
}

/// The coding key of an array element (`[0]`) or of a superclass's container.
private struct ProbeIndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "[\(intValue)]"
        self.intValue = intValue
    }
}
