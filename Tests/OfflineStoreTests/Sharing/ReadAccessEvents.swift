import OfflineStore
import Testing

/// The `readAccessLost` and `failedEntry` events of one run, until it finishes. No deadline
/// of its own: a wall-clock deadline shorter than the suite's time limit fails a slow run for
/// nothing; the suite's time limit is the hang guard.
func readAccessLosses(in events: AsyncStream<SyncEvent>) async throws -> (losses: [ReadAccessLoss], failed: [QueueEntry]) {
    var losses: [ReadAccessLoss] = [], failed: [QueueEntry] = []
    for await event in events {
        if case .readAccessLost(let loss) = event { losses.append(loss) }
        if case .failedEntry(let entry) = event { failed.append(entry) }
        if case .finished = event { return (losses, failed) }
    }
    Issue.record("the events ended before the run finished")
    return (losses, failed)
}
