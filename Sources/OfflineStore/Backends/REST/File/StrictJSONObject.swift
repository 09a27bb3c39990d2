/// Reads one JSON object of a configuration file strictly: every member must be read by
/// its parser, so a misspelled key is an error naming it instead of a setting silently
/// ignored; every error names the member's path (`resources.orders.pull.paging.size`).
struct StrictJSONObject {
    let path: String
    private let members: [String: JSONValue]
    private var read: Set<String> = []

    /// - Throws: `configuration` when `value` is not an object.
    init(_ value: JSONValue, path: String) throws {
        guard case .object(let members) = value else {
            throw Self.error(path, "must be a JSON object, got \(value.typeName)")
        }
        self.path = path
        self.members = members
    }

    /// The member's value, or nil when absent (a JSON `null` counts as absent).
    mutating func value(_ key: String) -> JSONValue? {
        read.insert(key)
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    mutating func string(_ key: String) throws -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw Self.error(at(key), "must be a string, got \(value.typeName)") }
        return text
    }

    /// A string that may be switched off: `.some(nil)` for an explicit JSON `null`, nil
    /// when absent (keep the default).
    mutating func nullableString(_ key: String) throws -> String?? {
        if members[key] == .null {
            read.insert(key)
            return .some(nil)
        }
        return try string(key).map { .some($0) }
    }

    mutating func requiredString(_ key: String) throws -> String {
        guard let text = try string(key) else { throw Self.error(at(key), "is required") }
        return text
    }

    mutating func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = value(key) else { return nil }
        guard let number = value.intValue, let int = Int(exactly: number), range.contains(int) else {
            throw Self.error(at(key), "must be a whole number in \(range.lowerBound)…\(range.upperBound), got \(value)")
        }
        return int
    }

    mutating func bool(_ key: String) throws -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else { throw Self.error(at(key), "must be true or false, got \(value.typeName)") }
        return flag
    }

    mutating func strings(_ key: String) throws -> [String]? {
        guard let value = value(key) else { return nil }
        guard let items = value.arrayValue else { throw Self.error(at(key), "must be an array of strings, got \(value.typeName)") }
        return try items.enumerated().map { index, item in
            guard let text = item.stringValue else { throw Self.error("\(at(key))[\(index)]", "must be a string, got \(item.typeName)") }
            return text
        }
    }

    mutating func stringMap(_ key: String) throws -> [String: String]? {
        guard let value = value(key) else { return nil }
        var object = try StrictJSONObject(value, path: at(key))
        var result: [String: String] = [:]
        for name in object.keys { result[name] = try object.requiredString(name) }
        try object.finish()
        return result
    }

    /// One of `choices`, by name.
    mutating func choice<T>(_ key: String, _ choices: [String: T]) throws -> T? {
        guard let text = try string(key) else { return nil }
        guard let chosen = choices[text] else {
            throw Self.error(at(key), "must be one of \(choices.keys.sorted().joined(separator: ", ")), got \"\(text)\"")
        }
        return chosen
    }

    /// A nested object, parsed by `body`.
    mutating func object<T>(_ key: String, _ body: (inout StrictJSONObject) throws -> T) throws -> T? {
        guard let value = value(key) else { return nil }
        var object = try StrictJSONObject(value, path: at(key))
        let result = try body(&object)
        try object.finish()
        return result
    }

    /// The member names, sorted.
    var keys: [String] { members.keys.sorted() }

    /// The path of a member.
    func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// - Throws: `configuration` naming the first member nobody read.
    func finish() throws {
        if let unknown = members.keys.sorted().first(where: { !read.contains($0) }) {
            throw Self.error(at(unknown), "is not a setting this version knows")
        }
    }

    static func error(_ path: String, _ problem: String) -> OfflineStoreError {
        OfflineStoreError(.configuration, "REST resources file: \(path) \(problem)")
    }
}
