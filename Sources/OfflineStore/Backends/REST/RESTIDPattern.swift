import Foundation

/// Matches ids against a ``RESTResource/idPattern`` (pure, no I/O).
enum RESTIDPattern {
    /// Throws unless the whole of `id` matches `pattern`.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidID`` naming the pattern;
    ///   ``OfflineStoreError/Code/configuration`` for a pattern that does not compile.
    static func check(_ id: String, against pattern: String, collection: String) throws {
        let expression: NSRegularExpression
        do {
            expression = try NSRegularExpression(pattern: "^(?:" + pattern + ")$")
        } catch {
            throw OfflineStoreError(.configuration, "the id pattern of the REST resource '\(collection)' is not a valid regular expression: \(pattern)")
        }
        let range = NSRange(id.startIndex..<id.endIndex, in: id)
        guard expression.firstMatch(in: id, options: [], range: range) != nil else {
            let shown = id.count > 64 ? String(id.prefix(64)) + "…" : id
            throw OfflineStoreError(.invalidID, "id \"\(shown)\" does not match the id pattern of '\(collection)' (\(pattern))")
        }
    }
}
