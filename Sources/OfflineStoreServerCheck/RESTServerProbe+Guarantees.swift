import OfflineStore

/// The probes of each guarantee (``RESTServerCheck/Guarantee``).
extension RESTServerProbe {
    /// A pull through every page: each id once (true for a tombstone), how many pages and
    /// records, and the ids listed more than once.
    func list(since cursor: String?) async throws -> (ids: [String: Bool], pages: Int, records: Int, repeated: [String]) {
        var ids: [String: Bool] = [:], pages = 0, records = 0, repeated: [String] = []
        var continuation: PullContinuation?
        repeat {
            let page = try await backend.pull(PullRequest(collection: collection, cursor: cursor, continuation: continuation))
            pages += 1
            records += page.changes.count
            for change in page.changes {
                if ids.updateValue(change.record == nil, forKey: change.id) != nil { repeated.append(change.id) }
            }
            continuation = page.next
        } while continuation != nil
        return (ids, pages, records, repeated)
    }

    func replay(_ fields: [String: JSONValue], key: String, first: Scratch, made: inout [Scratch]) async throws -> RESTServerCheck.Row {
        guard case .server = resource.ids else {
            return row(.idempotentCreate, .notChecked, "the client chooses the ids, so a resent create names its own record")
        }
        let again = try await create(fields, key: key, resend: true)
        if again.id == first.id {
            let how = resource.createLookupParameter.map { "found by ?\($0)=<key>" } ?? "answered with the first record"
            return row(.idempotentCreate, .holds, "a create sent again with its idempotency key was \(how) (\(first.id))")
        }
        made.append(again)
        return row(.idempotentCreate, .fails, "a create sent again with its idempotency key made a second record (\(again.id) beside \(first.id))")
    }

    /// A write based on `base`'s version after `probe` moved past it.
    func staleWrite(_ guarantee: Guarantee, probe: inout Scratch, base: Scratch) async throws -> RESTServerCheck.Row {
        let kind = guarantee == .staleUpdate ? "update" : "delete"
        let article = guarantee == .staleUpdate ? "an" : "a"
        guard let stale = base.version else {
            return row(guarantee, .fails, "the server gives its records no version (no ETag, no version field), so a stale \(kind) cannot be told")
        }
        guard stale != probe.version else {
            return row(guarantee, .notChecked, "the version did not change when the record was updated (\(stale))")
        }
        let operation = PushOperation(id: probe.id, kind: guarantee == .staleUpdate ? .update : .delete,
                                      data: guarantee == .staleUpdate ? try varied(probe.record) : nil, baseVersion: stale,
                                      idempotencyKey: "offline-store-check")
        switch try await backend.push([operation], collection: collection).first {
        case .conflict?:
            return row(guarantee, .holds, "\(article) \(kind) based on version \(stale), after the record moved to \(probe.version ?? "?"), was refused as a conflict")
        case .applied(let record, let version)?:
            if guarantee == .staleDelete { probe.deleted = true } else {
                probe = Scratch(id: probe.id, version: version, mark: probe.mark, record: record ?? probe.record)
            }
            return row(guarantee, .fails, "\(article) \(kind) based on version \(stale), after the record moved to \(probe.version ?? "?"), was applied")
        case let other:
            return row(guarantee, .notChecked, "a stale \(kind) was answered \(String(describing: other))")
        }
    }

    func incrementalPull(since cursor: String?, older: Scratch, changed: Scratch) async throws -> RESTServerCheck.Row {
        guard resource.pull.isEnabled else { return row(.incrementalPull, .notChecked, "the resource is not pulled") }
        guard let parameter = resource.pull.cursorParameter else {
            return row(.incrementalPull, .notChecked, "pull.cursorParameter is null: every pull reads the whole list")
        }
        guard let cursor, let olderMark = older.mark, olderMark < cursor else {
            return row(.incrementalPull, .notChecked, "the scratch records carry no distinct \(resource.pull.cursorField)")
        }
        let listed: [String: Bool]
        do { listed = try await list(since: cursor).ids } catch let error as OfflineStoreError where error.code == .configuration || error.code == .badResponse {
            return row(.incrementalPull, .fails, "a pull since \(parameter)=\(cursor) failed: \(error.message)")
        }
        if listed[older.id] != nil {
            return row(.incrementalPull, .fails, "a pull since \(parameter)=\(cursor) listed a record last changed before it: "
                + "the server ignores \(parameter)")
        }
        guard listed[changed.id] == false else {
            return row(.incrementalPull, .fails, "a pull since \(parameter)=\(cursor) did not list the record changed after it")
        }
        return row(.incrementalPull, .holds, "a pull since \(parameter)=\(cursor) listed the change after it and not the record before it")
    }

    func deletionsShow(_ deleted: Scratch, since cursor: String?) async throws -> RESTServerCheck.Row {
        guard resource.pull.isEnabled else { return row(.deletions, .notChecked, "the resource is not pulled") }
        let listed: [String: Bool]
        let incremental = resource.pull.deletions == .tombstones && resource.pull.cursorParameter != nil
        do { listed = try await list(since: incremental ? cursor : nil).ids } catch let error as OfflineStoreError
            where error.code == .configuration || error.code == .badResponse {
            return row(.deletions, .notChecked, "the pull failed: \(error.message)")
        }
        switch resource.pull.deletions {
        case .sweep:
            return listed[deleted.id] == nil
                ? row(.deletions, .holds, "a pull from the beginning no longer lists a deleted record (pull.deletions sweep)")
                : row(.deletions, .fails, "a pull from the beginning still lists a deleted record, so a sweep cannot see it")
        case .tombstones:
            guard let field = resource.pull.tombstoneField else {
                return row(.deletions, .fails, "pull.tombstoneField is null and pull.deletions is not sweep: deletions on the server are never seen")
            }
            switch listed[deleted.id] {
            case true?: return row(.deletions, .holds, "the pull lists a deleted record as a tombstone (\(field) set)")
            case false?: return row(.deletions, .fails, "the pull lists a deleted record as live: its \(field) is not set")
            case nil: return row(.deletions, .fails, "the pull does not list a deleted record: the server removes the row, "
                + "so no tombstone ever shows")
            }
        }
    }

    func fullPull() async throws -> RESTServerCheck.Row {
        guard resource.pull.isEnabled else { return row(.paging, .notChecked, "the resource is not pulled") }
        do {
            let pull = try await list(since: nil)
            if case .cursor = resource.pull.paging {} else if let id = pull.repeated.first {
                return row(.paging, .fails, "a pull from the beginning listed record \(id) twice in \(pull.pages) pages")
            }
            let one = pull.pages == 1 ? " (one page: the list is too short to exercise the paging)" : ""
            return row(.paging, .holds, "a pull from the beginning read \(pull.records) records in \(pull.pages) pages\(one)")
        } catch let error as OfflineStoreError where error.code == .configuration || error.code == .badResponse {
            return row(.paging, .fails, error.message)
        }
    }
}
