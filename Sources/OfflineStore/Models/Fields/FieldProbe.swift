/// What decoding a model from invented values says about its fields: the instances of
/// every round and, per round, the JSON each field path got (see ``ProbeSamples``).
///
/// A key path's stored name is the one field path whose JSON, in every round, equals the
/// key path's value in that round's instance encoded the model's way. That uses only
/// public API — the model's own `Decodable` and `Encodable` — so it follows `CodingKeys`
/// renames and custom coding, reaches nested properties (`\.address.city` is
/// `address.city`), and needs no reflection metadata.
final class FieldProbe<M: SyncModel>: Sendable {
    /// The model decoded once per round.
    let instances: [M]
    /// Per round, the JSON of every field path.
    let fed: [[[String]: JSONValue]]
    /// The top-level keys the model's decoding asks for: the members it knows.
    let topLevelKeys: [String]
    private let encoder: ModelEncoder

    private init(instances: [M], fed: [[[String]: JSONValue]], topLevelKeys: [String]) {
        self.instances = instances
        self.fed = fed
        self.topLevelKeys = topLevelKeys
        self.encoder = ModelEncoder(coding: M.coding)
    }

    /// Decodes `M` as many rounds as its fields need.
    ///
    /// - Throws: ``ProbeFailure`` when a field's type refuses every value tried.
    static func run() throws -> FieldProbe<M> {
        let codes = ProbeCodes()
        var instances: [M] = []
        var fed: [[[String]: JSONValue]] = []
        var keys: [String] = []
        var round = 0
        repeat {
            let run = ProbeRun(round: round, codes: codes, coding: M.coding)
            let root = ProbeDecoder(run: run, path: [], codingPath: [], emptyCollections: false)
            do { instances.append(try M(from: root)) } catch let failure as ProbeFailure { throw failure } catch {
                throw ProbeFailure(path: [], type: M.self, underlying: error)
            }
            fed.append(run.fed)
            if round == 0 { keys = run.topLevelKeys }
            round += 1
        } while round < ProbeSamples.rounds(forCodes: codes.count)
        return FieldProbe(instances: instances, fed: fed, topLevelKeys: keys)
    }

    /// The field path of a key path: its stored name, split at the dots.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidFieldPath`` when no field (or more than one)
    ///   holds the key path's value in every round: a computed property, or fields the
    ///   probe could not tell apart.
    func path(of keyPath: PartialKeyPath<M>) throws -> [String] {
        var values: [JSONValue] = []
        for instance in instances {
            guard let json = encode(instance[keyPath: keyPath]) else {
                throw OfflineStoreError(.invalidFieldPath, "\(KeyPathText.describe(keyPath)) is not an Encodable property of \(M.self)")
            }
            values.append(json)
        }
        let matches = fed[0].keys.filter { path in
            values.indices.allSatisfy { fed[$0][path] == values[$0] }
        }
        guard let path = matches.first else {
            // A computed property has no stored field; naming the stored ones points at the right key path.
            let stored = topLevelKeys.sorted().joined(separator: ", ")
            throw OfflineStoreError(.invalidFieldPath,
                "\(KeyPathText.describe(keyPath)) is not a stored property of \(M.self) (a computed property, or one its "
                + "CodingKeys leave out): it has no stored field to query or sort by; use one of \(M.self)'s stored "
                + "properties (\(stored)), or store the value")
        }
        guard matches.count == 1 else {
            let names = matches.map { $0.joined(separator: ".") }.sorted()
            throw OfflineStoreError(.invalidFieldPath,
                "\(KeyPathText.describe(keyPath)) cannot be told apart from the fields \(names) of \(M.self); name it in renamedFields")
        }
        if let dotted = path.first(where: { $0.contains(".") }) {
            throw OfflineStoreError(.invalidFieldPath, "\(KeyPathText.describe(keyPath)) is stored under '\(dotted)', whose dot a field path cannot hold")
        }
        return path
    }

    private func encode(_ value: Any) -> JSONValue? {
        guard let encodable = value as? any Encodable else { return nil }
        return try? encoder.encode(encodable)
    }
}
