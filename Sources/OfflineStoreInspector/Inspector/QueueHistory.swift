import Foundation
import OfflineStore

/// What the inspector saw the queue do while it ran: edits folded into a pending entry
/// (coalescing), entries whose kind changed, entries that left the queue.
///
/// The store keeps no record of the edits an entry absorbed (an entry holds no payload
/// until it is sent), so this is observed: each time the file changes, the queue and the
/// local copies of its objects are compared with the previous look.
final class QueueHistory: Sendable {
    /// Entries looked at per change; a larger queue is observed only up to here.
    static let observedLimit = 2_000
    /// Notes kept per entry, and departed entries kept.
    static let keep = 20

    /// A departed entry and why it left, as far as the object shows.
    struct Departure: Sendable, Hashable {
        var seq: Int64
        var collection: String
        var id: String
        var kind: QueueEntry.Kind
        var note: String
        var at: Date
    }

    private struct Look: Sendable, Hashable {
        var collection: String
        var id: String
        var kind: QueueEntry.Kind
        var state: QueueEntry.State
        var local: String?
    }

    private struct State {
        var previous: [Int64: Look]?
        var notes: [Int64: [String]] = [:]
        var folded: [Int64: Int] = [:]
        var departures: [Departure] = []
    }

    private let state = Locked(State())

    /// The notes on an entry, oldest first.
    func notes(for seq: Int64) -> [String] { state.withLock { $0.notes[seq] ?? [] } }
    /// How many edits were seen folding into the entry.
    func folded(into seq: Int64) -> Int { state.withLock { $0.folded[seq] ?? 0 } }
    /// Entries that left the queue, newest first.
    var departures: [Departure] { state.withLock { $0.departures } }

    /// Compares the queue with the last look and records what changed.
    func observe(_ store: ObjectStore) {
        guard let entries = try? store.queueEntries() else { return }
        var looks: [Int64: Look] = [:]
        for entry in entries.prefix(Self.observedLimit) {
            let object = try? store.collection(entry.collection).object(entry.objectID)
            looks[entry.seq] = Look(collection: entry.collection, id: entry.objectID, kind: entry.kind,
                                    state: entry.state, local: object?.local?.serialized())
        }
        let gone = departed(from: looks, in: store)
        state.withLock { s in
            defer { s.previous = looks }
            guard let previous = s.previous else { return }  // the first look is the baseline
            for (seq, look) in looks.sorted(by: { $0.key < $1.key }) {
                guard let before = previous[seq] else {
                    let earlier = previous.filter { $0.value.collection == look.collection && $0.value.id == look.id }
                    var note = "queued as \(look.kind.rawValue)"
                    if let (prior, _) = earlier.max(by: { $0.key < $1.key }) {
                        note += " behind #\(prior), which was already sent or rejected, so the edit could not fold into it"
                    }
                    append(note, to: seq, in: &s)
                    continue
                }
                if before.kind != look.kind {
                    append("became \(look.kind.rawValue): a \(before.kind.rawValue) and a later edit coalesced", to: seq, in: &s)
                    s.folded[seq, default: 0] += 1
                } else if before.local != look.local, look.state == .pending {
                    append("an edit folded in (coalesced; one request will send the latest copy)", to: seq, in: &s)
                    s.folded[seq, default: 0] += 1
                }
            }
            for seq in previous.keys.sorted() where looks[seq] == nil {
                let before = previous[seq]!
                s.departures.insert(Departure(seq: seq, collection: before.collection, id: before.id, kind: before.kind,
                                              note: gone[seq] ?? "left the queue", at: Date()), at: 0)
                s.notes[seq] = nil
                s.folded[seq] = nil
            }
            if s.departures.count > Self.keep { s.departures.removeLast(s.departures.count - Self.keep) }
        }
    }

    private func append(_ note: String, to seq: Int64, in state: inout State) {
        state.notes[seq, default: []].append(note)
        if state.notes[seq]!.count > Self.keep { state.notes[seq]!.removeFirst() }
    }

    /// Why entries of the last look are gone, judged from their objects now.
    private func departed(from looks: [Int64: Look], in store: ObjectStore) -> [Int64: String] {
        let previous = state.withLock { $0.previous } ?? [:]
        var reasons: [Int64: String] = [:]
        for (seq, before) in previous where looks[seq] == nil {
            let object = try? store.collection(before.collection).object(before.id)
            reasons[seq] = switch object?.state {
            case nil where before.kind == .create && before.state == .pending:
                "cancelled: the object was deleted before its create was sent, so nothing is sent"
            case nil: "sent, or dropped with its object"
            case .synced?: "sent: the server has it"
            case .conflicted?: "sent and met a conflict; resolving queues a new entry"
            case let other?: "left the queue; the object is \(other.rawValue)"
            }
        }
        return reasons
    }
}
