import Foundation

extension ODataServerCheck {
    /// The rows of one entity set, one per ``Guarantee``, from what its probe saw.
    public init(facts: ODataProbeFacts) {
        let verdicts = ODataVerdicts(facts: facts)
        self.init(rows: Guarantee.allCases.map { guarantee in
            if let reason = facts.unchecked[guarantee] { return verdicts.row(guarantee, .notChecked, reason) }
            return verdicts.row(for: guarantee)
        })
    }
}

/// The verdict on each guarantee from one set's facts (pure).
struct ODataVerdicts {
    typealias Guarantee = ODataServerCheck.Guarantee
    let facts: ODataProbeFacts
    let recipes = "Docs/Backends.md, \"Enabling ETags and change tracking\""

    func row(_ guarantee: Guarantee, _ outcome: ODataServerCheck.Outcome, _ detail: String, relied: Bool = false,
             store: String? = nil, fix: String? = nil) -> ODataServerCheck.Row {
        ODataServerCheck.Row(collection: facts.entitySet, guarantee: guarantee, outcome: outcome, reliedOn: relied,
                             detail: detail, store: store ?? self.store(guarantee), fix: outcome == .fails ? fix : nil)
    }

    /// What the store does, whatever the service did.
    func store(_ guarantee: Guarantee) -> String {
        switch guarantee {
        case .staleUpdate: "sends If-Match with the ETag of the server copy it last saw on every update and delete; a 412 is a conflict, kept with the server copy read back"
        case .ifMatchRequired: "always sends If-Match, so its own writes are checked either way"
        case .changeTracking: "refreshes by the deltaLink where the service gives one; else lists the set"
        case .paging: "follows @odata.nextLink to the end of every read; its own page size is only an odata.maxpagesize hint"
        case .batch: "sends queued edits in JSON $batch requests where the service takes them"
        case .atomicityGroups: "reads a group with any failed or missing answer as failed as a whole, whatever the other answers say"
        case .resentCreate: "recognises a create it sends again by reading the entity, whatever status the repeat gets"
        case .resentDelete: "recognises a delete it sends again by reading the entity, whatever status the repeat gets"
        case .deletions: "finds deletions from the delta, or by the keys a full read no longer lists"
        }
    }

    func row(for guarantee: Guarantee) -> ODataServerCheck.Row {
        switch guarantee {
        case .staleUpdate: staleUpdate()
        case .ifMatchRequired: ifMatchRequired()
        case .changeTracking: changeTracking()
        case .paging: paging()
        case .batch: batch()
        case .atomicityGroups: atomicityGroups()
        case .resentCreate: resentCreate()
        case .resentDelete: resentDelete()
        case .deletions: deletions()
        }
    }

    // MARK: Writes

    func staleUpdate() -> ODataServerCheck.Row {
        let fix = "make the service send ETags and check If-Match (412 when it names an older one): \(recipes)"
        guard let old = facts.createdETag, let new = facts.updatedETag else {
            return row(.staleUpdate, .fails, "the service sends no ETag (no ETag header, no @odata.etag) for a created or updated entity",
                       relied: true, store: "cannot tell a stale write: the last write wins on this service", fix: fix)
        }
        guard let status = facts.staleUpdateStatus else { return row(.staleUpdate, .notChecked, "no stale update was sent") }
        let stale = "an update with If-Match \(old), after the entity moved to \(new),"
        switch status {
        case 412:
            return row(.staleUpdate, .holds, "\(stale) was refused with 412" + Self.timestampNote(new), relied: true)
        case 200..<300:
            return row(.staleUpdate, .fails, "\(stale) was applied (HTTP \(status)): the service does not check If-Match",
                       relied: true, store: "cannot tell a stale write: the last write wins on this service", fix: fix)
        default:
            return row(.staleUpdate, .notChecked, "\(stale) was answered HTTP \(status), neither 412 nor a success", relied: true)
        }
    }

    /// A note when an ETag looks like a time in milliseconds: writes within one share it.
    static func timestampNote(_ etag: String, now: Date = Date()) -> String {
        let opaque = etag.replacingOccurrences(of: "W/", with: "").trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        guard opaque.count >= 12, let ms = Int64(opaque),
              abs(Double(ms) / 1000 - now.timeIntervalSince1970) < 366 * 86_400 else { return "" }
        return "; its ETags are the time of the last write in milliseconds (\(etag)), so two writes in one millisecond "
            + "share one and the second is not refused"
    }

    func ifMatchRequired() -> ODataServerCheck.Row {
        guard let status = facts.noIfMatchStatus else { return row(.ifMatchRequired, .notChecked, "no update without If-Match was sent") }
        switch status {
        case 428:
            return row(.ifMatchRequired, .holds, "an update without If-Match was refused with 428")
        case 200..<300:
            return row(.ifMatchRequired, .fails, "an update without If-Match was applied (HTTP \(status)): a client that "
                + "sends none overwrites the store's edits without a conflict",
                       fix: "require If-Match on updates and deletes (428 without it) if other clients write: \(recipes)")
        default:
            return row(.ifMatchRequired, .notChecked, "an update without If-Match was answered HTTP \(status)")
        }
    }

    func resentCreate() -> ODataServerCheck.Row {
        guard let status = facts.resentCreateStatus else { return row(.resentCreate, .notChecked, "no create was sent again") }
        let body = facts.resentCreateBody.map { " (\($0))" } ?? ""
        switch status {
        case 409:
            return row(.resentCreate, .holds, "a create sent again with the key of the entity it made was refused with 409")
        default:
            return row(.resentCreate, .fails, "a create sent again with the key of the entity it made was answered HTTP "
                + "\(status)\(body): the status does not say that the entity exists")
        }
    }

    func resentDelete() -> ODataServerCheck.Row {
        guard let status = facts.resentDeleteStatus else { return row(.resentDelete, .notChecked, "no delete was sent again") }
        let sent = "a delete sent again with its old ETag, after the entity was deleted,"
        switch status {
        case 404, 204, 200:
            return row(.resentDelete, .holds, "\(sent) was answered HTTP \(status)")
        case 412:
            return row(.resentDelete, .fails, "\(sent) was refused with 412: the status cannot be told from a conflict")
        default:
            return row(.resentDelete, .fails, "\(sent) was answered HTTP \(status)")
        }
    }
}
