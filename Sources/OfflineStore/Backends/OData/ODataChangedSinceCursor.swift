import Foundation

/// The cursor of an entity set pulled by a changed-since property on a service without
/// change tracking (pure): the latest value of the property read, as the service wrote it,
/// and the refreshes since the last full pull (``ODataSweepSchedule``). Stored by the engine
/// as the backend's opaque text, a JSON object, which a delta link (a URL) never is.
struct ODataChangedSinceCursor: Codable, Sendable, Equatable {
    /// The property the value is of; a cursor of another property is not used.
    var property: String
    /// The latest value read; nil when the set listed none (the next refresh is a full pull).
    var value: JSONValue?
    /// The refreshes since the last full pull, that one included.
    var refreshes: Int

    init(property: String, value: JSONValue?, refreshes: Int) {
        self.property = property
        self.value = value
        self.refreshes = refreshes
    }

    /// The cursor a text holds, nil for any other text (a delta link, a damaged cursor).
    init?(text: String) {
        guard text.hasPrefix("{"), let cursor = try? JSONDecoder().decode(Self.self, from: Data(text.utf8)) else { return nil }
        self = cursor
    }

    /// Whether a stored cursor is one of these (a JSON object), even one that no longer parses.
    static func isChangedSince(_ text: String) -> Bool { text.hasPrefix("{") }

    /// The text the engine stores.
    var text: String {
        var members: [String: JSONValue] = ["property": .string(property), "refreshes": .int(Int64(refreshes))]
        if let value { members["value"] = value }
        return JSONValue.object(members).serialized()
    }
}
