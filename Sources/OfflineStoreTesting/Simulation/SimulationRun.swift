import Foundation
import OfflineStore

/// One run of a ``Simulation``: its clients, network, server and scheduler. Everything
/// here runs on the run's thread (client tasks included, through ``SimulationExecutor``).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SimulationRun: @unchecked Sendable {
    // @unchecked: used by the run's thread only (client tasks run on it too).

    /// Something the scheduler can make happen at a step.
    enum Event {
        case edit(SimulatedClient), sync(SimulatedClient), flush(SimulatedClient), refresh(SimulatedClient)
        case resolve(SimulatedClient), kill(SimulatedClient), rescope(SimulatedClient), serverWriter
        case deliverRequest(SimulatedCall), dropRequest(SimulatedCall), duplicateRequest(SimulatedCall)
        case deliverAnswer(SimulatedCall), dropAnswer(SimulatedCall), timeOut(SimulatedCall)
    }

    let seed: UInt64
    let configuration: Simulation.Configuration
    var random: SimulationRandom
    let date = ManualDate()
    let start: Int64
    let executor = SimulationExecutor()
    let network: SimulatedNetwork
    let server: SimulatedServer
    let directory: URL
    var clients: [SimulatedClient] = []
    var trace: [String] = []
    var violations: [SimulationResult.Violation] = []
    var statistics = SimulationResult.Statistics()
    var step = 0
    /// The sync scope each client's app registers now, by client index (nil: the whole collection).
    var scopes: [ServerQuery?] = []
    /// How many writes the server's own writer made: the next value's number.
    var writerEdits = 0
    private var nextIncarnation = 1
    private var stuck = false

    /// How long the run's thread waits for a client task that does not come back to the
    /// simulation (a bug): a watchdog, never a synchronisation.
    static let watchdog: TimeInterval = 60

    init(seed: UInt64, configuration: Simulation.Configuration) {
        self.seed = seed
        self.configuration = configuration
        random = SimulationRandom(seed: seed)
        let sizes = configuration.pageSizes
        let pageSize = sizes.isEmpty ? configuration.pageSize : sizes[random.int(in: 0..<sizes.count)]
        let date = self.date
        let milliseconds: @Sendable () -> Int64 = { Int64((date.date.timeIntervalSince1970 * 1000).rounded(.down)) }
        start = milliseconds()
        network = SimulatedNetwork(executor: executor, clock: milliseconds)
        server = SimulatedServer(backend: InMemoryBackend(configuration: InMemoryBackend.Configuration(
            maxBatchSize: configuration.maxBatchSize, pageSize: pageSize, now: date.now, lookBack: configuration.lookBack)))
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("offline-store-simulation-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    }

    /// Runs the steps, heals, checks, and removes the store files.
    func run() -> SimulationResult {
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try openClients()
            while step < configuration.steps, !stuck { chaosStep() }
            if !stuck { heal() }
            if !stuck { check() }
        } catch {
            fail(.run, "the simulation could not run: \(error)", ids: [])
        }
        for client in clients { try? client.store.close() }
        statistics.requests = network.callCount
        return SimulationResult(seed: seed, trace: trace, violations: violations, statistics: statistics)
    }

    /// Opens each client's first process. A client keeps its `open` for the next ones; it
    /// holds the run unowned, since the run holds its clients (a strong capture kept every
    /// run, and every store it opened, alive until the process ended).
    private func openClients() throws {
        let base = SimulatedClient.configuration(base: configuration.store, date: date)
        scopes = (0..<configuration.clients).map { configuration.scopes[$0 % configuration.scopes.count] }
        for index in 0..<configuration.clients {
            let policy = configuration.policies[index % configuration.policies.count]
            clients.append(try SimulatedClient(index: index, directory: directory, policy: policy,
                                                    privateIDs: configuration.privateIDs) { [unowned self] path, client in
                let incarnation = nextIncarnation
                nextIncarnation += 1
                network.open(incarnation: incarnation, client: client)
                let backend = SimulatedBackend(network: network, server: server.backend, incarnation: incarnation, client: client,
                                               overlapsPageBoundaries: configuration.overlapsPageBoundaries)
                let store = try ObjectStore(path: path, configuration: base, backend: backend)
                try store.register(descriptor(policy: policy, scope: scopes[index]))
                return (store, incarnation)
            })
            log("open \(clients[index].name) (\(Self.name(of: policy)), \(Self.describe(scopes[index])))")
        }
    }

    // MARK: - Steps

    /// One step of the run before healing: a random event among those that can happen now.
    private func chaosStep() {
        settle()
        guard !stuck else { return }
        step += 1
        statistics.steps += 1
        date.advance(by: .milliseconds(random.int(in: 0..<1500)))
        var options: [(weight: Int, value: Event)] = []
        for client in clients {
            if !network.isRunning(incarnation: client.incarnation) {
                options += [(30, .edit(client)), (12, .sync(client)), (4, .flush(client)), (4, .refresh(client))]
                if !configuration.scopeChoices.isEmpty { options.append((configuration.rescopeWeight, .rescope(client))) }
                let conflicts = (try? client.store.conflicts().count) ?? 0
                if conflicts > 0 { options.append((10, .resolve(client))) }
            }
            options.append((configuration.killWeight, .kill(client)))
        }
        options.append((configuration.serverWriterWeight, .serverWriter))
        for call in network.liveCalls() {
            let legs = network.legs(of: call)
            if legs.request == .inTransit {
                let weight = call.deliveryWeight ?? (random.chance(25) ? 1 : 10)
                call.deliveryWeight = weight
                options += [(weight, .deliverRequest(call)), (1, .dropRequest(call)), (1, .duplicateRequest(call))]
            }
            if legs.answer == .inTransit { options += [(10, .deliverAnswer(call)), (1, .dropAnswer(call))] }
            if legs.waiting {
                let hopeless = legs.request == .dropped || legs.answer == .dropped
                options.append((hopeless ? 8 : 3, .timeOut(call)))
            }
        }
        guard let event = random.pick(options) else { return }
        perform(event)
        settle()
    }

    /// Makes `event` happen and writes its trace line.
    func perform(_ event: Event) {
        switch event {
        case .edit(let client): startEdit(client)
        case .sync(let client): startRun(client, "sync") { try await $0.sync() }
        case .flush(let client): startRun(client, "flush") { try await $0.flush() }
        case .refresh(let client): startRun(client, "refresh") { try await $0.refresh() }
        case .resolve(let client): resolveConflicts(of: client, always: nil)
        case .kill(let client): kill(client)
        case .rescope(let client): rescope(client)
        case .serverWriter: writeOnServer()
        case .deliverRequest(let call): deliver(call, duplicate: false)
        case .duplicateRequest(let call): deliver(call, duplicate: true)
        case .dropRequest(let call):
            statistics.drops += 1
            network.dropRequest(call)
            log("lose request r\(call.id)")
        case .deliverAnswer(let call):
            log("answer r\(call.id) reaches \(clientName(call))")
            network.deliverAnswer(call)
        case .dropAnswer(let call):
            statistics.drops += 1
            network.dropAnswer(call)
            log("lose answer r\(call.id)")
        case .timeOut(let call):
            statistics.timeouts += 1
            let due = call.sentAt + Int64(configuration.timeout.components.seconds * 1000)
            let now = milliseconds()
            if due > now { date.advance(by: .milliseconds(due - now)) }
            log("\(clientName(call)) gives up waiting for r\(call.id)")
            network.timeOut(call, error: OfflineStoreError(.timeout, "the simulated server did not answer in time"))
        }
    }

    /// The server handles a request now (a second copy when `duplicate`).
    func deliver(_ call: SimulatedCall, duplicate: Bool) {
        let late = !network.legs(of: call).waiting
        let before = server.history.count
        let answer = server.handle(call, late: late || duplicate)
        if late || duplicate { statistics.lateDeliveries += 1 }
        if duplicate { statistics.duplicates += 1 }
        let how = duplicate ? "deliver a copy of" : (late ? "deliver late" : "deliver")
        log("\(how) r\(call.id) \(clientName(call)) \(describe(call.request)) → \(describe(answer))")
        for write in server.history[before...] { noteHazard(write) }
        if !duplicate { network.delivered(call, answer: answer) }
    }

    /// Counts a late create that the server applied over a deletion.
    private func noteHazard(_ write: ServerWrite) {
        guard write.isLive, write.kind == .create else { return }
        let earlier = server.writes(of: write.id).filter { $0.appliedAt <= write.appliedAt }
        guard let deletion = earlier.dropLast().last, !deletion.isLive, write.sentAt < deletion.sentAt else { return }
        if deletion.client == write.client {
            statistics.lateCreatesAfterOwnDelete += 1
        } else {
            statistics.lateCreatesAfterOthersDelete += 1
        }
    }

    private func kill(_ client: SimulatedClient) {
        statistics.kills += 1
        let wasRunning = network.isRunning(incarnation: client.incarnation)
        log("kill \(client.name)\(wasRunning ? " while it runs" : "") and open its file again")
        client.kill(network: network)
        settle()
        do { try client.reopen() } catch {
            fail(.run, "\(client.name) could not open its store again: \(Self.describe(error))", ids: [])
        }
    }

    /// Runs client tasks until each waits for the network or is done.
    func settle() {
        let deadline = Date().addingTimeInterval(Self.watchdog)
        let quiet = executor.runUntilQuiet(deadline: deadline) { network.everyRunningClientWaits() }
        if !quiet, !stuck {
            stuck = true
            fail(.run, "a client task did not come back to the simulation within \(Int(Self.watchdog)) s", ids: [])
        }
    }

    // MARK: - Trace

    func milliseconds() -> Int64 { Int64((date.date.timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Appends a step line: step number, simulated time since the start, text.
    func log(_ text: String) {
        let elapsed = milliseconds() - start
        trace.append(String(format: "%4d %7.3fs ", step, Double(elapsed) / 1000) + text)
    }

    /// Appends an indented line (what a client's run or edit came to).
    func note(_ text: String) { trace.append("              " + text) }

    func fail(_ kind: SimulationResult.Violation.Kind, _ message: String, ids: [String]) {
        violations.append(SimulationResult.Violation(kind: kind, message: message, ids: ids))
    }

    private func clientName(_ call: SimulatedCall) -> String { "c\(call.client + 1)" }
}
