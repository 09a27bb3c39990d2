import Foundation
import OfflineStore

extension RESTBackend {
    /// Checks, resource by resource, the guarantees sync relies on, with scratch records it
    /// creates and removes: is a stale update refused (409/412)? a stale delete? does a pull
    /// since a cursor list only later changes? does a deletion show? does a pull from the
    /// beginning end without repeats, with every record announced? does a replayed create
    /// answer the first record? (`offline-store check-server`; Docs/Backends.md).
    ///
    /// Each resource's scratch record is `samples[collection]` (local field names), else a copy
    /// of the first record the server lists; a server that refuses it leaves that resource's
    /// rows `notChecked`. The paging probe reads the whole list once.
    ///
    /// - Throws: `configuration` for a collection without a resource; `offline`, `timeout`,
    ///   `unauthorized` when the server cannot be asked.
    public func checkServer(collections: [String]? = nil, samples: [String: JSONValue] = [:]) async throws -> RESTServerCheck {
        var rows: [RESTServerCheck.Row] = []
        for name in collections ?? configuration.resources.keys.sorted() {
            rows += try await RESTServerProbe(backend: self, collection: name, resource: try resource(name)).run(sample: samples[name])
        }
        return RESTServerCheck(rows: rows)
    }
}

/// The probe of one resource (``RESTBackend/checkServer(collections:samples:)``), through the
/// backend's own push and pull, so it sends exactly what sync sends.
struct RESTServerProbe {
    let backend: RESTBackend
    let collection: String
    let resource: RESTResource
    typealias Guarantee = RESTServerCheck.Guarantee

    /// A scratch record on the server: its id, version, cursor mark and local copy.
    struct Scratch { var id: String; var version: String?; var mark: String?; var record: JSONValue; var deleted = false }

    /// Why the probe cannot go on (every row left is `notChecked` with it).
    struct Stop: Error { var reason: String }

    func row(_ guarantee: Guarantee, _ outcome: RESTServerCheck.Outcome, _ detail: String) -> RESTServerCheck.Row {
        var detail = detail
        let relied = guarantee.isReliedOn(by: resource, idempotencyHeader: backend.configuration.idempotencyHeader)
        if !relied, outcome == .fails, guarantee == .staleUpdate || guarantee == .staleDelete {
            detail += "; the resources file says \"concurrency\": \"none\": the last write wins on this server"
        }
        return RESTServerCheck.Row(collection: collection, guarantee: guarantee, outcome: outcome, reliedOn: relied,
                                   detail: detail, fix: outcome == .fails ? guarantee.fix(collection) : nil)
    }

    func run(sample: JSONValue?) async throws -> [RESTServerCheck.Row] {
        var made: [Scratch] = []
        var rows: [RESTServerCheck.Row] = []
        do {
            try await probe(sample: sample, made: &made, rows: &rows)
        } catch let stop as Stop {
            let done = Set(rows.map(\.guarantee))
            rows += Guarantee.allCases.filter { !done.contains($0) }.map { row($0, .notChecked, stop.reason) }
        } catch {
            await removeScratch(made)
            throw error
        }
        await removeScratch(made)
        return Guarantee.allCases.compactMap { g in rows.first { $0.guarantee == g } }
    }

    private func probe(sample: JSONValue?, made: inout [Scratch], rows: inout [RESTServerCheck.Row]) async throws {
        let fields = try await scratchFields(sample)
        let older = try await create(fields, key: "offline-store-check-" + UUID().uuidString.lowercased())
        made.append(older)
        let key = "offline-store-check-" + UUID().uuidString.lowercased()
        var probe = try await create(fields, key: key)
        made.append(probe)
        rows.append(try await replay(fields, key: key, first: probe, made: &made))
        let base = probe
        probe = try await update(probe, base: probe.version, freshly: true)
        rows.append(try await staleWrite(.staleUpdate, probe: &probe, base: base))
        if let index = made.firstIndex(where: { $0.id == probe.id }) { made[index] = probe }
        rows.append(try await incrementalPull(since: base.mark, older: older, changed: probe))
        try await delete(older)
        made.removeAll { $0.id == older.id }
        rows.append(try await deletionsShow(older, since: base.mark))
        rows.append(try await staleWrite(.staleDelete, probe: &probe, base: base))
        if probe.deleted { made.removeAll { $0.id == probe.id } }
        rows.append(try await fullPull())
    }

    // MARK: The scratch records

    /// The sample, else a copy of the first listed record's fields (no id); `Stop` when there is neither.
    private func scratchFields(_ sample: JSONValue?) async throws -> [String: JSONValue] {
        if let sample {
            guard var fields = sample.objectValue else { throw OfflineStoreError(.invalidJSON, "the sample of \(collection) is not a JSON object") }
            fields["id"] = nil
            return fields
        }
        let first = try await backend.pull(PullRequest(collection: collection)).changes.first { $0.record != nil }
        guard var fields = first?.record?.objectValue else {
            throw Stop(reason: "no sample record for \(collection) and the server lists none to copy: pass one")
        }
        fields["id"] = nil
        return fields
    }

    func create(_ fields: [String: JSONValue], key: String, resend: Bool = false) async throws -> Scratch {
        var data = fields
        let id = "check-" + UUID().uuidString.lowercased()
        data["id"] = .string(id)
        var operation = PushOperation(id: id, kind: .create, data: .object(data), baseVersion: nil, idempotencyKey: key)
        operation.isResend = resend
        operation.attempt = resend ? 2 : 1
        switch try await backend.push([operation], collection: collection).first {
        case .applied(let record, let version)?:
            let copy = record ?? .object(data)
            return Scratch(id: copy["id"]?.stringValue ?? id, version: version, mark: mark(of: copy), record: copy)
        case .createdThenDeleted(let copy, let version)?:
            return Scratch(id: copy["id"]?.stringValue ?? id, version: version, mark: mark(of: copy), record: copy)
        case .rejected(let status, let body)?:
            throw Stop(reason: "the server refused the scratch record (HTTP \(status)): \(body ?? "") — pass a sample it accepts")
        case let other:
            throw Stop(reason: "the scratch create was answered \(String(describing: other))")
        }
    }

    /// The record's cursor mark (its `updated_at`, under its local name).
    private func mark(of record: JSONValue) -> String? {
        record[RESTBodyMapping(resource: resource).localName(resource.pull.cursorField)]?.stringValue
    }

    /// The record with one text or true/false field changed (never a server-owned one).
    func varied(_ record: JSONValue) throws -> JSONValue {
        var copy = record.objectValue ?? [:]
        let mapping = RESTBodyMapping(resource: resource)
        guard let field = copy.keys.sorted().first(where: { key in
            key != "id" && !mapping.serverOwned.contains(mapping.remoteName(key))
                && (copy[key]?.stringValue != nil || copy[key]?.boolValue != nil)
        }) else { throw Stop(reason: "the scratch record has no text or true/false field to change") }
        if let text = copy[field]?.stringValue { copy[field] = .string(text.hasSuffix("!") ? String(text.dropLast()) : text + "!") }
        else if let flag = copy[field]?.boolValue { copy[field] = .bool(!flag) }
        return .object(copy)
    }

    /// Updates the scratch record on `base`, changing one field.
    private func update(_ scratch: Scratch, base: String?, freshly: Bool) async throws -> Scratch {
        let copy = try varied(scratch.record)
        let operation = PushOperation(id: scratch.id, kind: .update, data: copy, baseVersion: base,
                                      idempotencyKey: UUID().uuidString.lowercased())
        switch try await backend.push([operation], collection: collection).first {
        case .applied(let record, let version)?:
            let now = record ?? copy
            return Scratch(id: scratch.id, version: version, mark: mark(of: now), record: now)
        case .conflict?:
            throw Stop(reason: freshly ? "an update on the current version was refused as a conflict" : "conflict")
        case let other:
            throw Stop(reason: "an update of the scratch record was answered \(String(describing: other))")
        }
    }

    private func delete(_ scratch: Scratch, base: String? = nil) async throws -> PushOutcome? {
        let operation = PushOperation(id: scratch.id, kind: .delete, data: nil, baseVersion: base ?? scratch.version,
                                      idempotencyKey: UUID().uuidString.lowercased())
        return try await backend.push([operation], collection: collection).first
    }

    @discardableResult
    private func delete(_ scratch: Scratch) async throws -> PushOutcome? { try await delete(scratch, base: nil) }

    /// Best effort: scratch records left by the probe are deleted on their current version.
    private func removeScratch(_ made: [Scratch]) async {
        for scratch in made {
            let current = try? await backend.read(scratch.id, resource: resource, what: "removing a scratch record")
            guard let current else { continue }
            _ = try? await delete(scratch, base: current.version)
        }
    }
}
