import Foundation

/// Reads an HTTP `Link` header (RFC 8288) for the target of its `next` link (pure).
///
/// A header lists links separated by commas: `<target>` then `; name=value` parameters, a
/// value a token or a quoted string. A target may hold commas (`?ids=1,2`) and a quoted value
/// commas and semicolons; `rel` holds relation types separated by spaces, compared without case.
enum RESTLinkHeader {
    /// The target of the first link whose `rel` names `next`, as the server wrote it; nil when
    /// there is none. Text that is not a link is skipped up to the next comma.
    static func next(in header: String) -> String? {
        let text = Array(header.utf8)
        var index = 0
        while index < text.count {
            guard text[index] == UInt8(ascii: "<") else { index += 1; continue }
            guard let close = text[(index + 1)...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            let target = String(decoding: text[(index + 1)..<close], as: UTF8.self)
            index = close + 1
            var isNext = false
            while let (name, value) = parameter(text, &index) {
                if name.lowercased() == "rel" {
                    isNext = isNext || value.split(whereSeparator: { $0 == " " || $0 == "\t" }).contains { $0.lowercased() == "next" }
                }
            }
            if isNext { return target }
        }
        return nil
    }

    /// The parameter at `index` (`; name=value`, `; name`), moving past it; nil, with `index`
    /// at the link's end (after its comma), when the link has no more.
    private static func parameter(_ text: [UInt8], _ index: inout Int) -> (String, String)? {
        skipSpaces(text, &index)
        guard index < text.count, text[index] == UInt8(ascii: ";") else {
            // The link ends at the next comma outside quotes (junk before it is skipped).
            skipValue(text, &index, until: [UInt8(ascii: ",")])
            if index < text.count { index += 1 }
            return nil
        }
        index += 1
        skipSpaces(text, &index)
        let nameStart = index
        while index < text.count, ![UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: ",")].contains(text[index]) { index += 1 }
        let name = String(decoding: text[nameStart..<index], as: UTF8.self).trimmingCharacters(in: spaces)
        guard index < text.count, text[index] == UInt8(ascii: "=") else { return (name, "") }
        index += 1
        skipSpaces(text, &index)
        guard index < text.count, text[index] == UInt8(ascii: "\"") else {
            let valueStart = index
            while index < text.count, ![UInt8(ascii: ";"), UInt8(ascii: ",")].contains(text[index]) { index += 1 }
            return (name, String(decoding: text[valueStart..<index], as: UTF8.self).trimmingCharacters(in: spaces))
        }
        // A quoted string: `\` escapes the next byte.
        index += 1
        var value: [UInt8] = []
        while index < text.count, text[index] != UInt8(ascii: "\"") {
            if text[index] == UInt8(ascii: "\\"), index + 1 < text.count { index += 1 }
            value.append(text[index])
            index += 1
        }
        if index < text.count { index += 1 }
        return (name, String(decoding: value, as: UTF8.self))
    }

    /// Moves `index` to the first of `stops` outside a quoted string, or to the end.
    private static func skipValue(_ text: [UInt8], _ index: inout Int, until stops: [UInt8]) {
        var quoted = false
        while index < text.count {
            let byte = text[index]
            if quoted, byte == UInt8(ascii: "\\") { index += 2; continue }
            if byte == UInt8(ascii: "\"") { quoted.toggle() } else if !quoted, stops.contains(byte) { return }
            index += 1
        }
        index = min(index, text.count)
    }

    private static let spaces = CharacterSet(charactersIn: " \t")

    private static func skipSpaces(_ text: [UInt8], _ index: inout Int) {
        while index < text.count, text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "\t") { index += 1 }
    }
}
