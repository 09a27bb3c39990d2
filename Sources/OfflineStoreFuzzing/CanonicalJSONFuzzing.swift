import OfflineStore

/// `canonical-json`: any bytes into the canonical transcoder (`CanonicalJSON`), which pulled
/// records take instead of a tree, checked against the tree path it stands for.
enum CanonicalJSONFuzzing {
    static let target = FuzzTarget(
        name: "canonical-json",
        summary: "bytes → CanonicalJSON: accepts exactly what the parser accepts and writes exactly serialized(); "
            + "records (last_modified dropped) and RemoteChange(recordText:) agree with the tree; parse → write → parse is the identity",
        check: check)

    static func check(_ bytes: [UInt8]) throws(PropertyViolation) {
        let tree = try? JSONFuzzing.parse(bytes)
        try checkDocument(bytes, tree: tree)
        guard let tree else { return }
        try JSONFuzzing.checkRoundTrip(tree)
        // The writer's output is canonical already: transcoding it changes nothing.
        let text = Array(tree.serialized().utf8)
        switch transcode(text) {
        case .text(let again): try require(again == text, "the canonical form is stable", shown(String(decoding: text, as: UTF8.self)))
        case .needsTree: break
        case .error(let error): throw PropertyViolation("the transcoder reads what serialized() writes", "\(error)")
        }
        if case .object(let members) = tree {
            try checkRecord(bytes, members: members)
            try checkRemoteChange(bytes, members: members)
        }
    }

    enum Transcoded {
        case text([UInt8])
        case needsTree
        case error(JSONError)
    }

    static func transcode(_ bytes: [UInt8]) -> Transcoded {
        do { return .text(try CanonicalJSON.canonical(bytes)) } catch is CanonicalJSON.NeedsTree { return .needsTree } catch let error as JSONError {
            return .error(error)
        } catch {
            fatalError("CanonicalJSON.canonical threw \(error)")
        }
    }

    /// The transcoder refuses only what the parser refuses, and otherwise writes `serialized()`
    /// or hands the document to the tree.
    static func checkDocument(_ bytes: [UInt8], tree: JSONValue?) throws(PropertyViolation) {
        switch transcode(bytes) {
        case .text(let text):
            guard let tree else { throw PropertyViolation("the transcoder accepts only what the parser accepts", shown(text)) }
            let expected = Array(tree.serialized().utf8)
            try require(text == expected, "the transcoder writes exactly serialized()",
                        "\(String(decoding: text, as: UTF8.self)) instead of \(String(decoding: expected, as: UTF8.self))")
        case .needsTree:
            // The tree path decides (its callers parse the document again), malformed or not.
            break
        case .error(let error):
            try require(tree == nil, "the transcoder refuses only what the parser refuses", "\(error)")
        }
    }

    /// A record transcoded with `last_modified` dropped: the tree without it, and the members a
    /// Kinto record is read by, as the tree has them.
    static func checkRecord(_ bytes: [UInt8], members: [String: JSONValue]) throws(PropertyViolation) {
        let read: (text: [UInt8], value: CanonicalJSON.TopLevel)
        do {
            read = try CanonicalJSON.document(bytes) { reader, out in try reader.record(into: &out, dropping: "last_modified") }
        } catch is CanonicalJSON.NeedsTree {
            return
        } catch {
            throw PropertyViolation("the record transcoder reads every object the parser reads", "\(error)")
        }
        var stripped = members
        stripped["last_modified"] = nil
        let expected = JSONValue.object(stripped).serialized()
        try require(read.text.elementsEqual(expected.utf8), "a record is written as its tree without last_modified",
                    "\(String(decoding: read.text, as: UTF8.self)) instead of \(expected)")
        let top = read.value
        try require(top.id == members["id"]?.stringValue, "the record's id is the tree's", "\(shown(top.id as Any))")
        try require(top.lastModified == members["last_modified"].map { Array($0.serialized().utf8) },
                    "the dropped last_modified is the tree's")
        try require(top.deletedIsTrue == (members["deleted"] == .bool(true)), "deleted is true as in the tree")
        try require(top.onlyTombstoneKeys == members.keys.allSatisfy(["id", "last_modified", "deleted"].contains),
                    "tombstone keys as in the tree")
    }

    /// `RemoteChange(id:recordText:version:)` (the public entry of record text) keeps the
    /// tree's record, however it holds it.
    static func checkRemoteChange(_ bytes: [UInt8], members: [String: JSONValue]) throws(PropertyViolation) {
        let id = members["id"]?.stringValue ?? "x"
        let given = members["id"]
        let anotherID = given != nil && given != .null && given != .string(id)
        do {
            let change = try RemoteChange(id: id, recordText: bytes, version: "1")
            try require(!anotherID, "a record whose id member is another id is refused", shown(given as Any))
            var expected = members
            expected["id"] = .string(id)
            try require(change.record == .object(expected), "a change from record text holds the tree's record",
                        "\(shown(change.record as Any)) instead of \(shown(expected))")
            try require(change == RemoteChange(id: id, record: .object(expected), version: "1"),
                        "a change from text equals the change from its tree")
        } catch let error as OfflineStoreError {
            try require(anotherID && error.code == .invalidID, "record text that parses is refused only for another id (invalidID)",
                        "\(error.code): \(error)")
        } catch {
            throw PropertyViolation("RemoteChange(recordText:) throws only OfflineStoreError", "\(error)")
        }
    }
}
