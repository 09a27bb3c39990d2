import Foundation

/// One object as the server changed it.
///
/// A backend that reads records as JSON text should create changes with
/// ``init(id:recordText:version:)``: the text is checked and kept in the store's canonical
/// form, and a refresh stores a new object's copy from it without building a ``JSONValue``
/// tree (``record`` builds one when asked).
public struct RemoteChange: Sendable, Hashable {
    /// The object id.
    public var id: String {
        didSet {
            // Text is kept only while it holds this id; the tree is checked against the id when applied.
            if id != oldValue, case .text = body { body = .value(record) }
        }
    }
    /// The server's copy without server-owned fields; nil for a tombstone (deleted on the server).
    public var record: JSONValue? {
        get {
            switch body {
            case .value(let value): return value
            case .text(let text): return RemoteChange.tree(of: text)
            }
        }
        set { body = .value(newValue) }
    }
    /// The server version of this change.
    public var version: String

    /// How the record is held.
    enum Body: Sendable {
        /// A tree (or nil: a tombstone).
        case value(JSONValue?)
        /// Canonical JSON text (``CanonicalJSON``) of an object whose `id` member is the change's id.
        case text([UInt8])
    }

    private(set) var body: Body

    /// Creates a change.
    public init(id: String, record: JSONValue?, version: String) {
        self.id = id
        self.body = .value(record)
        self.version = version
    }

    /// Creates a change from the JSON text of the server's copy (server-owned fields already
    /// left out); an `id` member, if the text has one, must be `id`.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidJSON`` when the text is not a JSON object,
    ///   ``OfflineStoreError/Code/invalidID`` when its `id` member is another id.
    public init(id: String, recordText: some ContiguousBytes, version: String) throws {
        self.id = id
        self.version = version
        do {
            let (text, top) = try CanonicalJSON.document(recordText) { reader, out in
                guard reader.current == UInt8(ascii: "{") else { throw CanonicalJSON.NeedsTree() }
                return try reader.record(into: &out, dropping: nil)
            }
            if top.id == id {
                body = .text(text)
                return
            }
        } catch let error as JSONError {
            throw OfflineStoreError(.invalidJSON, "the record of \(id.prefix(64)) is not JSON: \(error)")
        } catch {}
        // Not an object, no string id, or keys only a tree orders: the tree checks and keeps it.
        let value: JSONValue
        do {
            value = try recordText.withUnsafeBytes { try JSONValue(parsing: $0) }
        } catch {
            throw OfflineStoreError(.invalidJSON, "the record of \(id.prefix(64)) is not JSON: \(error)")
        }
        body = .value(.object(try ObjectValidation.members(of: value, id: id)))
    }

    /// A change holding canonical text (``CanonicalJSON``) whose `id` member is `id`.
    init(id: String, canonicalText: [UInt8], version: String) {
        self.id = id
        self.body = .text(canonicalText)
        self.version = version
    }

    /// The record's canonical text, when the change holds it as text.
    var canonicalText: [UInt8]? {
        if case .text(let text) = body { return text }
        return nil
    }

    /// The canonical text of the record, however it is held (nil for a tombstone).
    private var comparableText: [UInt8]? {
        switch body {
        case .text(let text): return text
        case .value(let value):
            guard let value else { return nil }
            var out: [UInt8] = []
            value.write(into: &out)
            return out
        }
    }

    /// Equal ids, versions and records, however the records are held.
    public static func == (lhs: RemoteChange, rhs: RemoteChange) -> Bool {
        lhs.id == rhs.id && lhs.version == rhs.version && lhs.comparableText == rhs.comparableText
    }

    /// Hashes the id, version and the record's canonical text.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(version)
        hasher.combine(comparableText)
    }

    /// The tree of text this type made canonical; such text always parses.
    private static func tree(of text: [UInt8]) -> JSONValue {
        do { return try JSONValue(parsing: text) } catch {
            preconditionFailure("canonical JSON text did not parse: \(error)")
        }
    }
}
