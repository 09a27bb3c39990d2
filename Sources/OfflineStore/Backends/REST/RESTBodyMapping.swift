/// Local objects ⇄ server records for one resource: key style and renames, never-sent
/// fields, field hooks, wrapping, ids and versions (pure, no I/O).
package struct RESTBodyMapping: Sendable {
    let resource: RESTResource

    /// The mapping of `resource`.
    package init(resource: RESTResource) { self.resource = resource }

    /// The remote name of a local field.
    package func remoteName(_ local: String) -> String {
        if let renamed = resource.renames[local] { return renamed }
        switch resource.keyStyle {
        case .identity: return local
        case .snakeCase: return Self.snakeCase(local)
        }
    }

    /// The local name of a remote field.
    package func localName(_ remote: String) -> String {
        if let local = resource.renames.first(where: { $0.value == remote })?.key { return local }
        switch resource.keyStyle {
        case .identity: return remote
        case .snakeCase: return Self.camelCase(remote)
        }
    }

    /// Remote fields that never go to the server (blob routes' server fields included).
    package var serverOwned: Set<String> {
        var owned = resource.neverSent
        owned.insert("id")
        if let v = resource.versionField { owned.insert(v) }
        if let t = resource.pull.tombstoneField { owned.insert(t) }
        for route in resource.blobRoutes.values { owned.formUnion(route.serverFields) }
        return owned
    }

    /// The fields to send for a local object, remote names, hooks applied, server-owned fields left out.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidJSON`` when a hook refuses a value.
    func remoteFields(_ object: JSONValue, includeID: Bool) throws -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        let owned = serverOwned
        for (key, value) in object.objectValue ?? [:] {
            let remote = remoteName(key)
            if key == "id" {
                if includeID { fields["id"] = value }
                continue
            }
            guard !owned.contains(remote) else { continue }
            if let codec = resource.codecs[key] {
                do { fields[remote] = try codec.encode(value) } catch {
                    throw OfflineStoreError(.invalidJSON, "field '\(key)' cannot be sent: \(error)")
                }
            } else {
                fields[remote] = value
            }
        }
        return fields
    }

    /// The request body: the fields, wrapped when the resource says so.
    func body(_ fields: [String: JSONValue]) -> JSONValue {
        guard let key = resource.wrapKey else { return .object(fields) }
        return .object([key: .object(fields)])
    }

    /// A server record as a local object: local names, hooks applied, `id` and association
    /// fields as strings, version and tombstone fields left out.
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` naming the field a hook refused, or a record without an id.
    func localRecord(_ record: JSONValue, what: String) throws -> (id: String, object: JSONValue) {
        guard let members = record.objectValue else {
            throw OfflineStoreError(.badResponse, "\(what): expected a JSON object, got \(record.typeName)")
        }
        var local: [String: JSONValue] = [:]
        for (remote, value) in members {
            if remote == resource.versionField || remote == resource.pull.tombstoneField { continue }
            let key = remote == "id" ? "id" : localName(remote)
            let codec = key == "id" || resource.associations[key] != nil ? RESTFieldCodec.idString : resource.codecs[key]
            do { local[key] = try codec?.decode(value) ?? value } catch {
                throw OfflineStoreError(.badResponse, "\(what): field '\(remote)' cannot be read: \(error)")
            }
        }
        guard let id = local["id"]?.stringValue, !id.isEmpty else {
            throw OfflineStoreError(.badResponse, "\(what): the record has no id")
        }
        return (id, .object(local))
    }

    /// A record's version from ``RESTResource/versionField`` (an integer or a string), if it has one.
    func version(of record: JSONValue) -> String? {
        guard let field = resource.versionField, let value = record[field] else { return nil }
        switch value {
        case .int(let i): return String(i)
        case .string(let s): return s
        default: return nil
        }
    }

    /// Whether a record is soft-deleted (its tombstone field is set).
    func isTombstone(_ record: JSONValue) -> Bool {
        guard let field = resource.pull.tombstoneField, let value = record[field] else { return false }
        return value != .null
    }

    /// `customerId` → `customer_id`.
    static func snakeCase(_ name: String) -> String {
        var out = ""
        for ch in name {
            if ch.isUppercase {
                if !out.isEmpty { out.append("_") }
                out += ch.lowercased()
            } else {
                out.append(ch)
            }
        }
        return out
    }

    /// `customer_id` → `customerId`.
    static func camelCase(_ name: String) -> String {
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return name }
        return parts.enumerated().map { i, part in
            i == 0 || part.isEmpty ? String(part) : part.prefix(1).uppercased() + part.dropFirst()
        }.joined()
    }
}
