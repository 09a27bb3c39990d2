import Foundation
import OfflineStore

extension ODataBackend {
    /// Checks, entity set by entity set, how the service behaves where OData services
    /// differ, with scratch entities it creates and removes: ETags and 412 on a stale
    /// `If-Match`, 428 without one, change tracking (deltaLink, `@removed`), paging
    /// (nextLink, `odata.maxpagesize`), JSON `$batch` and its failed atomicity groups, the
    /// status of a create and of a delete sent again, and what finding deletions costs
    /// (`offline-store check-server`; Docs/CLI.md).
    ///
    /// Each set's scratch entity is `samples[set]` (with the key the probe chooses where the
    /// client chooses keys), else one made from `$metadata`: a value for every property that
    /// may not be null. A service that refuses it leaves the set's rows `notChecked`. The
    /// paging probe reads the whole set once.
    ///
    /// - Throws: `configuration` for a set the service does not declare; `badResponse` for a
    ///   `$metadata` that cannot be read; `offline`, `timeout`, `unauthorized`, `forbidden`
    ///   when the service cannot be asked.
    public func checkServer(entitySets: [String], samples: [String: JSONValue] = [:],
                            transport: any HTTPTransport = URLSessionTransport(followingRedirects: false)) async throws -> ODataServerCheck {
        let client = ODataProbeClient(serviceRoot: configuration.serviceRoot, headers: configuration.headers,
                                      transport: transport, timeout: configuration.timeout)
        let metadata = try await client.send("GET", "$metadata", headers: ["Accept": "application/xml"])
        guard metadata.status == 200 else {
            throw OfflineStoreError(.badResponse, "check-server: GET $metadata was answered HTTP \(metadata.status): "
                + ODataProbeClient.summary(metadata))
        }
        let sets = try ODataSetOutline.read(metadata: metadata.body)
        var rows: [ODataServerCheck.Row] = []
        for name in entitySets {
            guard let set = sets[name] else {
                throw OfflineStoreError(.configuration, "the service has no entity set \(name) (its sets: "
                    + "\(sets.keys.sorted().joined(separator: ", ")))")
            }
            let facts = try await ODataServerProbe(client: client, set: set).run(sample: samples[name])
            rows += ODataServerCheck(facts: facts).rows
        }
        return ODataServerCheck(rows: rows)
    }
}

/// The probe of one entity set: gathers ``ODataProbeFacts`` with raw requests.
struct ODataServerProbe {
    let client: ODataProbeClient
    let set: ODataSetOutline
    typealias Guarantee = ODataServerCheck.Guarantee

    /// A scratch entity on the service: its id, current ETag and the fields it was created with.
    struct Scratch { var id: String; var etag: String?; var fields: [String: JSONValue] }

    /// Why the probe cannot go on: every guarantee without an observation is left unchecked with it.
    struct Stop: Error { var reason: String }

    func run(sample: JSONValue?) async throws -> ODataProbeFacts {
        var facts = ODataProbeFacts(entitySet: set.name)
        var made: [Scratch] = []
        do {
            try await probe(sample: sample, facts: &facts, made: &made)
        } catch let stop as Stop {
            for guarantee in Guarantee.allCases where facts.unchecked[guarantee] == nil && !observed(guarantee, facts) {
                facts.unchecked[guarantee] = stop.reason
            }
        } catch {
            await remove(made)
            throw error
        }
        await remove(made)
        return facts
    }

    /// Whether the facts already hold the observation `guarantee` is judged on.
    private func observed(_ guarantee: Guarantee, _ facts: ODataProbeFacts) -> Bool {
        switch guarantee {
        case .staleUpdate: facts.staleUpdateStatus != nil
        case .ifMatchRequired: facts.noIfMatchStatus != nil
        case .changeTracking: facts.deltaStatus != nil || (facts.pages != nil && !facts.deltaLink)
        case .paging: facts.pages != nil
        case .deletions: facts.pages != nil && (facts.deltaStatus != nil || !facts.deltaLink)
        case .batch: facts.batchStatus != nil
        case .atomicityGroups: facts.groupCreateApplied != nil || (facts.batchStatus != nil && !facts.batchListed)
        case .resentCreate: facts.resentCreateStatus != nil
        case .resentDelete: facts.resentDeleteStatus != nil
        }
    }

    private func probe(sample: JSONValue?, facts: inout ODataProbeFacts, made: inout [Scratch]) async throws {
        let fields = try scratchFields(sample)
        var first = try await create(fields)
        made.append(first)
        let second = try await create(fields)
        made.append(second)
        facts.createdETag = first.etag

        let deltaLink = try await readWhole(&facts)
        let before = first.etag
        first = try await updateChanging(first, facts: &facts)
        made[0] = first
        try await staleWrites(&first, stale: before, facts: &facts)
        made[0] = first
        try await resendCreate(first, facts: &facts)
        try await deleteTwice(first, facts: &facts)
        made.removeFirst()
        try await readDelta(deltaLink, deleted: first, facts: &facts)
        try await batchGroup(fields, target: second, facts: &facts, made: &made)
    }

    // MARK: The scratch entities

    /// The sample, else a value for every property that may not be null and one text
    /// property to change; the key where the client chooses it is added at each create.
    func scratchFields(_ sample: JSONValue?) throws -> [String: JSONValue] {
        if let problem = set.keyProblem { throw Stop(reason: problem) }
        if let sample {
            guard var fields = sample.objectValue else { throw Stop(reason: "the sample of \(set.name) is not a JSON object") }
            if let key = set.keyProperty { fields[key] = nil }
            return fields
        }
        var fields: [String: JSONValue] = [:]
        for property in set.properties where property.name != set.keyProperty && !set.computed.contains(property.name) {
            if let value = Self.placeholder(property.type) {
                if !property.nullable || (property.type == "Edm.String" && !fields.values.contains(.string("offline-store check"))) {
                    fields[property.name] = value
                }
            } else if !property.nullable {
                throw Stop(reason: "\(set.name).\(property.name) (\(property.type)) needs a value the probe cannot make up: "
                    + "pass --sample \(set.name)='{…}'")
            }
        }
        return fields
    }

    /// A value of a primitive type, or nil for types the probe does not make up.
    static func placeholder(_ type: String) -> JSONValue? {
        switch type {
        case "Edm.String": "offline-store check"
        case "Edm.Boolean": false
        case "Edm.Byte", "Edm.SByte", "Edm.Int16", "Edm.Int32", "Edm.Int64": 0
        case "Edm.Decimal", "Edm.Double", "Edm.Single": 0
        case "Edm.Guid": .string(UUID().uuidString.lowercased())
        case "Edm.Date": "2000-01-01"
        case "Edm.DateTimeOffset": "2000-01-01T00:00:00Z"
        default: nil
        }
    }

    /// A new key where the client chooses keys (a Guid or a String: integer keys are the
    /// server's, as the backend reads them); nil where the server assigns them.
    func newKey() -> JSONValue? {
        guard !set.serverAssignsKey else { return nil }
        return set.keyType == "Edm.Guid" ? .string(UUID().uuidString.lowercased())
            : .string("offline-store-check-" + UUID().uuidString.lowercased())
    }

    /// Creates a scratch entity.
    func create(_ fields: [String: JSONValue]) async throws -> Scratch {
        var body = fields
        if let key = newKey(), let property = set.keyProperty { body[property] = key }
        let answer = try await client.send("POST", set.name, headers: ["Prefer": "return=representation"], body: .object(body))
        guard (200..<300).contains(answer.status) else {
            throw Stop(reason: "the service refused the scratch entity (HTTP \(answer.status): \(ODataProbeClient.summary(answer))) "
                + "— pass --sample \(set.name)='{…}' with an entity it accepts")
        }
        let entity = ODataProbeClient.json(answer)
        guard let id = key(of: entity, sent: body, location: answer.header("location") ?? answer.header("odata-entityid")) else {
            throw Stop(reason: "the create of a scratch entity was answered HTTP \(answer.status) without its key")
        }
        if let property = set.keyProperty, let key = entity?[property] ?? body[property] { body[property] = key }
        return Scratch(id: id, etag: answer.header("etag") ?? entity?["@odata.etag"]?.stringValue, fields: body)
    }

    /// The created entity's key: from the answer's entity, its `Location`, or the key sent.
    private func key(of entity: [String: JSONValue]?, sent body: [String: JSONValue], location: String?) -> String? {
        if let entity, let id = try? set.id(of: entity) { return id }
        if let location, let id = try? set.id(ofEntityID: location) { return id }
        return set.keyProperty.flatMap { body[$0] }.flatMap { try? set.id(of: [set.keyProperty ?? "": $0]) }
    }

    /// The fields with one text, true/false or number property changed (never the key or a computed one).
    func varied(_ fields: [String: JSONValue]) throws -> [String: JSONValue] {
        let candidates = fields.keys.sorted().filter { $0 != set.keyProperty && !set.computed.contains($0) }
        guard let name = candidates.first(where: { fields[$0]?.stringValue != nil }) ?? candidates.first(where: {
            fields[$0]?.boolValue != nil || fields[$0]?.intValue != nil
        }) else { throw Stop(reason: "the scratch entity has no text, true/false or integer property to change") }
        var changed: [String: JSONValue] = [:]
        switch fields[name] {
        case .string(let text)?: changed[name] = .string(text.hasSuffix("!") ? String(text.dropLast()) : text + "!")
        case .bool(let flag)?: changed[name] = .bool(!flag)
        case .int(let number)?: changed[name] = .int(number == 0 ? 1 : 0)
        default: break
        }
        return changed
    }

    /// Deletes what the probe left, each on its current ETag (`*` when none is known).
    func remove(_ made: [Scratch]) async {
        for scratch in made {
            guard let path = try? set.entityPath(scratch.id),
                  let current = try? await client.send("GET", path), current.status == 200 else { continue }
            let etag = current.header("etag") ?? ODataProbeClient.json(current)?["@odata.etag"]?.stringValue ?? "*"
            _ = try? await client.send("DELETE", path, headers: ["If-Match": etag])
        }
    }
}
