import OfflineStore

/// The end of a run: the network heals, the clients sync until nothing changes.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension SimulationRun {
    /// How many rounds of syncs (every client once) the healing may take.
    static let healingRounds = 12

    /// Delivers every request still on the wire (the late ones first), then lets every
    /// client resolve its conflicts (keepLocal) and sync, round after round, until a round
    /// changes nothing.
    func heal() {
        log("-- the network heals: what is on the wire arrives, in any order; each client syncs until nothing changes")
        deliverStragglers()
        settleNetwork()
        for _ in 1...Self.healingRounds {
            var changed = false
            for client in clients {
                if ((try? client.store.conflicts().count) ?? 0) > 0 {
                    resolveConflicts(of: client, always: .keepLocal)
                    changed = true
                }
                step += 1
                statistics.steps += 1
                startRun(client, "sync") { try await $0.sync() }
                settleNetwork()
                switch client.lastRun {
                case .success(let report)?:
                    if report.pushed + report.pulled + report.conflictsDetected > 0 { changed = true }
                case .failure?, nil:
                    changed = true
                }
            }
            if !changed { return }
        }
        fail(.stuck, "the clients still changed something after \(Self.healingRounds) rounds of syncs on a healthy network", ids: [])
    }

    /// Delivers every request still on the wire, in a random order.
    private func deliverStragglers() {
        while true {
            settle()
            let waiting = network.liveCalls().filter { network.legs(of: $0).request == .inTransit }
            guard !waiting.isEmpty else { return }
            step += 1
            statistics.steps += 1
            deliver(waiting[random.int(in: 0..<waiting.count)], duplicate: false)
        }
    }

    /// A healthy network: delivers every request, then every answer, oldest first, until
    /// no client runs; a call whose request or answer was lost before times out.
    func settleNetwork() {
        while true {
            settle()
            let calls = network.liveCalls()
            let legs = calls.map { network.legs(of: $0) }
            if let index = legs.firstIndex(where: { $0.request == .inTransit }) {
                step += 1
                statistics.steps += 1
                deliver(calls[index], duplicate: false)
            } else if let index = legs.firstIndex(where: { $0.answer == .inTransit }) {
                step += 1
                statistics.steps += 1
                perform(.deliverAnswer(calls[index]))
            } else if let index = legs.firstIndex(where: { $0.waiting }) {
                step += 1
                statistics.steps += 1
                perform(.timeOut(calls[index]))
            } else {
                return
            }
        }
    }
}
