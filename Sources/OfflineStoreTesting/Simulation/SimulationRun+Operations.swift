import OfflineStore

/// What the simulated apps do: edits, sync runs, conflict resolutions.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension SimulationRun {
    /// Starts a client task on the simulation executor; the client counts as running
    /// until `body` returns.
    func launch(_ client: SimulatedClient, _ body: @escaping @Sendable (ObjectStore, Int) async -> Void) {
        let incarnation = client.incarnation, store = client.store
        network.setRunning(true, incarnation: incarnation)
        Task(executorPreference: executor) { [network] in
            await body(store, incarnation)
            network.setRunning(false, incarnation: incarnation)
        }
    }

    /// The app edits one object: creates it when it does not see it, else patches or deletes it.
    func startEdit(_ client: SimulatedClient) {
        let collection = configuration.collection
        let ids = configuration.objectIDs + client.privateIDs
        let id = ids[random.int(in: 0..<ids.count)]
        let exists = client.value(of: id, in: collection) != nil
        client.edits += 1
        let value = JSONValue.string("\(client.name).\(client.edits)")
        enum Edit { case create, patch, destroy }
        let edit: Edit = !exists ? .create : (random.chance(60) ? .patch : .destroy)
        // A create gets a tag; a patch changes it sometimes, so the object enters or leaves scopes.
        let tag = edit == .create || random.chance(40) ? randomTag() : nil
        let fields: [String: JSONValue] = tag.map { ["v": value, "tag": $0] } ?? ["v": value]
        let shown = Self.describe(.object(fields))
        switch edit {
        case .create: log("\(client.name) creates \(id)=\(shown)")
        case .patch: log("\(client.name) patches \(id)=\(shown)")
        case .destroy: log("\(client.name) deletes \(id)")
        }
        launch(client) { [self] store, _ in
            let objects = store.collection(collection)
            do {
                switch edit {
                case .create:
                    let saved = try await objects.create(.object(fields.merging(["id": .string(id)]) { $1 }))
                    client.intents[id] = SimulatedClient.Intent(value: saved, madeAt: milliseconds(), queuedDelete: false)
                case .patch:
                    let saved = try await objects.patch(id, fields)
                    client.intents[id] = SimulatedClient.Intent(value: saved, madeAt: milliseconds(), queuedDelete: false)
                case .destroy:
                    try await objects.destroy(id)
                    let queued = try store.queueEntries(collection: collection, id: id).contains { $0.kind == .delete }
                    client.intents[id] = SimulatedClient.Intent(value: nil, madeAt: milliseconds(), queuedDelete: queued)
                }
                statistics.edits += 1
            } catch {
                note("\(client.name) edit of \(id) refused: \(Self.describe(error))")
            }
        }
    }

    /// The app starts a sync run (`sync`, `flush` or `refresh`).
    func startRun(_ client: SimulatedClient, _ name: String,
                  _ operation: @escaping @Sendable (ObjectStore) async throws -> SyncReport) {
        log("\(client.name) \(name)")
        launch(client) { [self] store, incarnation in
            let outcome: Result<SyncReport, OfflineStoreError>
            do { outcome = .success(try await operation(store)) } catch {
                outcome = .failure(error as? OfflineStoreError ?? OfflineStoreError(.server, "\(error)"))
            }
            // A killed process's run ends unseen.
            guard incarnation == client.incarnation, network.isAlive(incarnation: incarnation) else { return }
            client.lastRun = outcome
            switch outcome {
            case .success(let report): note("\(client.name) \(name) done: \(Self.describe(report))")
            case .failure(let error):
                note("\(client.name) \(name) stopped: \(error.code)\(error.report.map { ", " + Self.describe($0) } ?? "")")
            }
        }
    }

    /// The app resolves every conflict of the client: with `always`, or keepLocal / keepServer at random.
    func resolveConflicts(of client: SimulatedClient, always: Resolution?) {
        let collection = configuration.collection
        let conflicts = ((try? client.store.conflicts(in: collection)) ?? []).sorted { $0.id < $1.id }
        for conflict in conflicts {
            let resolution = always ?? (random.chance(60) ? .keepLocal : .keepServer)
            let keepsLocal = resolution == .keepLocal
            log("\(client.name) resolves \(conflict.id) \(keepsLocal ? "keepLocal" : "keepServer") (local "
                + "\(Self.describe(conflict.local)), server \(Self.describe(conflict.server)))")
            do {
                try client.store.resolve(collection, id: conflict.id, with: resolution)
                statistics.resolutions += 1
                if !keepsLocal { client.intents[conflict.id] = nil }
            } catch {
                note("\(client.name) resolve of \(conflict.id) refused: \(Self.describe(error))")
            }
        }
    }

    // MARK: - Descriptions for the trace

    static func name(of policy: ConflictPolicy) -> String {
        switch policy {
        case .preserveConflict: "preserveConflict"
        case .clientWins: "clientWins"
        case .serverWins: "serverWins"
        case .merge: "merge"
        case .custom: "custom"
        }
    }

    static func describe(_ error: any Error) -> String {
        (error as? OfflineStoreError).map { "\($0.code)" } ?? "\(type(of: error))"
    }

    static func describe(_ value: JSONValue?) -> String {
        guard let value else { return "deleted" }
        let tag = value["tag"]?.stringValue.map { "/" + $0 }
        guard let v = value["v"]?.stringValue else { return tag ?? value.serialized() }
        return v + (tag ?? "")
    }

    static func describe(_ report: SyncReport) -> String {
        var parts = ["pushed \(report.pushed)", "pulled \(report.pulled)"]
        if report.conflictsDetected > 0 { parts.append("conflicts \(report.conflictsDetected)") }
        if report.conflicts > 0 { parts.append("left conflicted \(report.conflicts)") }
        if report.lateDeliveriesUndone > 0 { parts.append("late writes undone \(report.lateDeliveriesUndone)") }
        if report.failed > 0 { parts.append("failed \(report.failed)") }
        return parts.joined(separator: ", ")
    }

    func version(_ text: String?) -> String {
        guard let text else { return "" }
        guard let number = Int64(text) else { return "@\(text)" }
        return "@+\(number - start)"
    }

    static func describe(_ request: SimulatedRequest, start: Int64) -> String {
        switch request {
        case .push(_, let operations):
            let items = operations.map { op -> String in
                let resend = op.isResend ? "again " : ""
                let base = op.baseVersion.flatMap { Int64($0) }.map { " on @+\($0 - start)" } ?? ""
                switch op.kind {
                case .create: return "\(resend)create \(op.id)=\(describe(op.data))"
                case .update: return "\(resend)update \(op.id)=\(describe(op.data))\(base)"
                case .delete: return "\(resend)delete \(op.id)\(base)"
                }
            }
            return "push [\(items.joined(separator: ", "))]"
        case .pull(_, let since, let continuing, let listing):
            let from = since.flatMap { Int64($0) }.map { " since @+\(max(0, $0 - start))" } ?? " from the start"
            let what: String
            switch listing {
            case .everything: what = "pull"
            case .scope(let scope): what = "scoped pull (\(describe(scope)))"
            case .fields: what = "departure pull"
            }
            return "\(what)\(from)\(continuing == nil ? "" : " (next page)")"
        }
    }

    func describe(_ request: SimulatedRequest) -> String { Self.describe(request, start: start) }

    func describe(_ answer: SimulatedAnswer) -> String {
        switch answer {
        case .failed(let error): return "error \(error.code)"
        case .page(let page):
            let items = page.changes.map { "\($0.id)=\(Self.describe($0.record))\(version($0.version))" }
            return "[\(items.joined(separator: ", "))]\(page.next == nil ? "" : " more")"
        case .pushed(let outcomes):
            let items = outcomes.map { outcome -> String in
                switch outcome {
                case .applied(_, let v): return "ok\(version(v))"
                case .createdThenDeleted: return "created then deleted"
                case .conflict(let server, let v): return "412 (\(Self.describe(server))\(version(v)))"
                case .rejected(let status, _): return "rejected \(status)"
                case .retry(let status, _, _): return "retry \(status.map(String.init) ?? "")"
                }
            }
            return "[\(items.joined(separator: ", "))]"
        }
    }
}
