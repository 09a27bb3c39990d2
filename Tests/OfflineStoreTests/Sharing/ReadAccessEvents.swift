import OfflineStore
import Testing

/// The `readAccessLost` and `failedEntry` events of one run, until it finishes, within a time limit.
func readAccessLosses(in events: AsyncStream<SyncEvent>) async throws -> (losses: [ReadAccessLoss], failed: [QueueEntry]) {
    try await withThrowingTaskGroup(of: ([ReadAccessLoss], [QueueEntry])?.self) { group in
        group.addTask {
            var losses: [ReadAccessLoss] = [], failed: [QueueEntry] = []
            for await event in events {
                if case .readAccessLost(let loss) = event { losses.append(loss) }
                if case .failedEntry(let entry) = event { failed.append(entry) }
                if case .finished = event { return (losses, failed) }
            }
            return (losses, failed)
        }
        group.addTask {
            try await Task.sleep(for: .seconds(10))
            return nil
        }
        defer { group.cancelAll() }
        return try #require(try await group.next() ?? nil)
    }
}
