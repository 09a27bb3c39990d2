import Foundation
import OfflineStore

/// `kinto-page`: a Kinto list answer into the streamed page reader (`KintoPageReader`), in
/// chunks split where the input's first byte says, against the same body read whole.
enum KintoPageFuzzing {
    static let target = FuzzTarget(
        name: "kinto-page",
        summary: "first byte: the chunk split; the rest: a list answer body → KintoPageReader: the same changes or the same "
            + "error whatever the split; what it accepts, KintoPage reads whole to the same changes",
        check: check)

    /// What a reader made of a body: the changes it handed out, and the error that stopped it.
    struct Outcome: Equatable {
        var changes: [RemoteChange] = []
        var error: JSONError?
    }

    static func check(_ input: [UInt8]) throws(PropertyViolation) {
        var choices = FuzzInput(input)
        var random = SplitMix(seed: UInt64(choices.byte()))
        let body = choices.rest
        let whole = try read([body[...]])
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        let largest = [1, 2, 7, 64, 1024][random.next(in: 0...4)]
        while start < body.count {
            let end = min(body.count, start + random.next(in: 1...largest))
            chunks.append(body[start..<end])
            start = end
        }
        let split = try read(chunks)
        try require(split == whole, "the same body gives the same changes or error whatever its chunks",
                    "whole: \(shown(whole.error as Any)), \(whole.changes.count) changes; "
                        + "\(chunks.count) chunks: \(shown(split.error as Any)), \(split.changes.count) changes")
        for change in whole.changes {
            try require(Int64(change.version) != nil, "a change's version is an integer last_modified", change.version)
            if let record = change.record {
                try require(record["id"] == .string(change.id), "a record's id member is the change's id", shown(record))
                try require(record["last_modified"] == nil, "a record comes without last_modified", shown(record))
            }
        }
        if whole.error == nil {
            let expected = KintoPage.changes(Data(body))
            try require(expected != nil, "a page the reader accepts is read whole too")
            try require(KintoPage.latest(whole.changes) == expected, "the streamed page keeps the changes the whole page keeps",
                        "\(whole.changes.count) streamed, \(expected?.count ?? 0) whole")
        }
    }

    /// Feeds the chunks one by one, then finishes; any other error than JSONError is a violation.
    static func read(_ chunks: [ArraySlice<UInt8>]) throws(PropertyViolation) -> Outcome {
        var reader = KintoPageReader()
        var outcome = Outcome()
        do {
            for chunk in chunks { try reader.read(chunk, into: &outcome.changes) }
            try reader.finish()
        } catch let error as JSONError {
            outcome.error = error
        } catch {
            throw PropertyViolation("the reader throws only JSONError", "\(error)")
        }
        if let error = outcome.error {
            let size = chunks.reduce(0) { $0 + $1.count }
            try require((0...size).contains(error.offset), "an error names an offset inside the body", "\(error) for \(size) bytes")
        }
        return outcome
    }
}
