import Foundation
import OfflineStore

/// `json`: any bytes into the JSON parser and its lexer (``JSONValue/init(parsing:)-(ContiguousBytes)``).
enum JSONFuzzing {
    static let target = FuzzTarget(
        name: "json",
        summary: "bytes → JSONValue(parsing:): a typed JSONError inside the input, or a value whose text parses back to it; "
            + "bytes and String inputs agree; Foundation accepts what it accepts",
        check: check)

    static func check(_ bytes: [UInt8]) throws(PropertyViolation) {
        let parsed = Result { () throws(JSONError) in try parse(bytes) }
        // The String entry point reads the same bytes (when they are UTF-8: a String cannot hold others).
        if let text = utf8Text(bytes) {
            let fromText = Result { () throws(JSONError) in try parseText(text) }
            try require(fromText == parsed, "parsing bytes and parsing the same text agree",
                        "bytes: \(shown(parsed)), text: \(shown(fromText))")
        }
        switch parsed {
        case .failure(let error):
            try require((0...bytes.count).contains(error.offset), "an error names an offset inside the input",
                        "\(error) for \(bytes.count) bytes")
        case .success(let value):
            try checkRoundTrip(value)
            // Whatever this strict parser accepts, Foundation's parser accepts too.
            let foundation = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            try require(foundation != nil, "Foundation's JSONSerialization accepts what JSONValue accepts", shown(value))
        }
    }

    /// The value's text parses back to the value, is written again byte for byte, and is
    /// what `write(into:)` appends.
    static func checkRoundTrip(_ value: JSONValue) throws(PropertyViolation) {
        let text = value.serialized()
        var written: [UInt8] = []
        value.write(into: &written)
        try require(written.elementsEqual(text.utf8), "write(into:) appends the bytes of serialized()", text)
        let again: JSONValue
        do { again = try parseText(text) } catch {
            throw PropertyViolation("serialized text always parses", "\(error) in \(shown(text))")
        }
        try require(again == value, "serialized text parses back to the same value", "\(shown(value)) → \(shown(again))")
        try require(again.serialized() == text, "serialized text is stable", shown(text))
    }

    static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        do { return try JSONValue(parsing: bytes) } catch let error as JSONError { throw error } catch {
            fatalError("JSONValue(parsing:) threw \(error), not a JSONError")
        }
    }

    static func parseText(_ text: String) throws(JSONError) -> JSONValue {
        do { return try JSONValue(parsing: text) } catch let error as JSONError { throw error } catch {
            fatalError("JSONValue(parsing:) threw \(error), not a JSONError")
        }
    }
}
