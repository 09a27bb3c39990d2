/// The injected faults still to be played, in injection order.
struct FaultQueue: Sendable {
    private var entries: [(fault: InMemoryBackend.Fault, remaining: Int)] = []

    /// How many fault plays are left.
    var count: Int { entries.reduce(0) { $0 + $1.remaining } }

    /// Queues `fault` to be played `times` times.
    mutating func append(_ fault: InMemoryBackend.Fault, times: Int) {
        precondition(times >= 1, "a fault must be injected at least once")
        entries.append((fault, times))
    }

    /// Forgets every queued fault.
    mutating func removeAll() { entries.removeAll() }

    /// Takes the first fault of a whole call that can hit `call`.
    mutating func takeCallFault(for call: InMemoryBackend.Call) -> InMemoryBackend.Fault? {
        take { $0.operationID == nil && $0.calls.contains(call) }
    }

    /// Takes the first fault that targets the pushed operation with this id.
    mutating func takeOperationFault(id: String) -> InMemoryBackend.Fault? {
        take { $0.operationID == id }
    }

    private mutating func take(where matches: (InMemoryBackend.Fault) -> Bool) -> InMemoryBackend.Fault? {
        guard let index = entries.firstIndex(where: { matches($0.fault) }) else { return nil }
        let fault = entries[index].fault
        entries[index].remaining -= 1
        if entries[index].remaining == 0 { entries.remove(at: index) }
        return fault
    }
}
