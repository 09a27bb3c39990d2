import Foundation

extension ODataBackend {
    /// The entity set's changed-since property (``ODataEntitySetSettings/changedSince``)
    /// checked against `$metadata`; nil when the set has none.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` naming the property and the set's
    ///   properties when the set does not declare it, or its type when a pull cannot be ordered by it.
    func changedSince(of mapping: ODataRecordMapping) throws -> ODataChangedSince? {
        try ODataChangedSince(configuration.entitySets[mapping.set.name], of: mapping.set)
    }

    /// The first page of a refresh from a changed-since cursor (a service without change
    /// tracking): what changed since the cursor less the margin, ordered by the property then
    /// the key, or on the refreshes ``ODataSweepSchedule`` names a full pull whose pages say
    /// they started from the beginning (the engine sweeps deletions after it). A cursor that no
    /// longer parses (damaged, of another property, of a set that no longer has the setting)
    /// and a filter the service refuses (400, 501: the property cannot be filtered or ordered
    /// by) start a full pull too; local edits are kept, as after any full pull.
    func incrementalPage(_ request: PullRequest, cursor text: String, changedSince: ODataChangedSince?,
                         mapping: ODataRecordMapping, what: String) async throws -> PullPage {
        // Only a set whose service gave no delta link stores a changed-since cursor.
        let refused = service.withLock { facts in
            facts.tracksChanges[mapping.set.name] = false
            return facts.changedSinceRefused.contains(mapping.set.name)
        }
        guard let changedSince, !refused, let cursor = ODataChangedSinceCursor(text: text), cursor.property == changedSince.property,
              let value = cursor.value, let filter = changedSince.since(value) else {
            return try await firstPage(request, mapping: mapping, changedSince: changedSince, restarted: true, what: what)
        }
        let schedule = ODataSweepSchedule.next(after: cursor.refreshes, sweepEvery: changedSince.sweepEvery)
        guard schedule.pull == .incremental else {
            return try await firstPage(request, mapping: mapping, changedSince: changedSince, restarted: true, what: what)
        }
        let url = try listURL(request, mapping: mapping, filter: filter, orderBy: changedSince.orderBy(keyProperty: mapping.key.property))
        let reply = try await send("GET", url, headers: [("Prefer", "odata.maxpagesize=\(Self.pageSizeHint)")], what: what)
        if reply.status == 400 || reply.status == 501 {
            service.withLock { _ = $0.changedSinceRefused.insert(mapping.set.name) }
            return try await firstPage(request, mapping: mapping, changedSince: changedSince, restarted: true, what: what)
        }
        var state = ODataPullState(next: .link(url.absoluteString), deltaLink: nil, restarted: false)
        state.changedSince = ODataChangedSinceCursor(property: changedSince.property, value: value, refreshes: schedule.refreshes)
        state.incremental = true
        return try await page(reply, state: state, delta: false, request: request, mapping: mapping, what: what)
    }

    /// The URL of an incremental pull's next page: the entities after `after` (the last one
    /// read: its value of the property and its id) in the order property, key.
    func sinceURL(_ request: PullRequest, mapping: ODataRecordMapping, changedSince: ODataChangedSince,
                  after: (value: JSONValue, id: String)) throws -> URL {
        guard let key = ODataFilter.literal(.string(after.id), type: mapping.key.type.rawValue),
              let filter = changedSince.after(after.value, keyProperty: mapping.key.property, key: key) else {
            throw OfflineStoreError(.invalidOperation, "pulling \(mapping.set.name): the pull continuation names \(after.id) at "
                + "\(after.value), not a key and a value of \(changedSince.property)")
        }
        return try listURL(request, mapping: mapping, filter: filter, orderBy: changedSince.orderBy(keyProperty: mapping.key.property))
    }

    /// How an incremental pull goes on after the last entity of a page.
    ///
    /// - Throws: ``OfflineStoreError/Code/badResponse`` for an entity without the property
    ///   (the pull is ordered by it, so one after it cannot be asked).
    static func next(after last: ODataPage.Entity, changedSince: ODataChangedSince, mapping: ODataRecordMapping,
                     what: String) throws -> ODataPullState.Next {
        let (id, _) = try mapping.object(last.properties, what: what)
        guard let value = changedSince.value(in: last.properties) else {
            throw OfflineStoreError(.badResponse, "\(what): the entity \(id) has no \(changedSince.property) "
                + "(\(last.properties[changedSince.property].map { "\($0)" } ?? "missing")), which the pull is ordered by")
        }
        return .since(value, id)
    }
}
