import Foundation

/// One row of the reliability table: what a scenario did and what it found broken.
struct ReliabilityTally: Sendable, CustomStringConvertible {
    /// The scenario's name, e.g. "kill -9 during sync".
    var scenario: String
    /// Runs (child processes or workload rounds).
    var runs = 0
    /// Kill points or faults injected.
    var injected = 0
    /// Acknowledged edits whose survival was checked.
    var editsChecked = 0
    /// Acknowledged edits missing or wrong (locally, or on the server after quiescence).
    var lost = 0
    /// Objects on the server twice, or there although their deletion was acknowledged.
    var duplicated = 0
    /// Objects where local and server disagree after quiescence (or, for refresh
    /// scenarios, server records the store missed or holds in excess).
    var missed = 0
    /// Conflicts met although no other client wrote (their local copy held the
    /// acknowledged edit; settled with keepLocal). Not a loss, but a known engine weakness.
    var falseConflicts = 0

    /// A line `scripts/torture` collects into its table.
    var description: String {
        "RELIABILITY-ROW|\(scenario)|\(runs)|\(injected)|\(editsChecked)|\(lost)|\(duplicated)|\(missed)|\(falseConflicts)"
    }

    /// Whether nothing was lost, duplicated or missed.
    var isClean: Bool { lost == 0 && duplicated == 0 && missed == 0 }
}
