/// Counts processed items per collection and direction within one run.
final class ProgressCounter: Sendable {
    private struct Key: Hashable { let collection: String; let direction: SyncProgress.Direction }
    private struct State {
        var processed: [Key: Int] = [:]
        var totals: [Key: Int?] = [:]
        var cumulative = 0
    }
    private let state = Locked(State())

    /// Adds `count` items; the total is learned on the collection's first event of the run.
    func advance(_ collection: String, _ direction: SyncProgress.Direction, by count: Int,
                 total: () -> Int?) -> SyncProgress {
        let key = Key(collection: collection, direction: direction)
        let known = state.withLock { $0.totals[key] }
        let firstTotal: Int?? = known == nil ? .some(total()) : nil
        return state.withLock { s in
            if let firstTotal, s.totals[key] == nil { s.totals[key] = firstTotal }
            s.processed[key, default: 0] += count
            s.cumulative += count
            return SyncProgress(collection: collection, direction: direction, total: s.totals[key] ?? nil,
                                processed: s.processed[key] ?? 0, cumulative: s.cumulative)
        }
    }
}
