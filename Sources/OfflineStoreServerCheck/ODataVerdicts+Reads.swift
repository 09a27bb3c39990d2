/// The verdicts on reads and batches.
extension ODataVerdicts {
    /// Whether the service tracks changes well enough to refresh by its deltaLinks.
    var tracksChanges: Bool { facts.deltaLink && facts.deltaStatus == 200 && facts.deltaListedRemoval == true }

    func changeTracking() -> ODataServerCheck.Row {
        guard facts.deltaLink else {
            let applied = facts.trackChangesApplied ? "Preference-Applied named it but no deltaLink came"
                : "no Preference-Applied, no deltaLink"
            return row(.changeTracking, .fails, "Prefer: odata.track-changes was ignored (\(applied))",
                       store: "lists the whole set at each refresh (or what changed since the set's changedSince property, "
                           + "with a full read every sweepEvery refreshes) and finds deletions as the keys no longer listed",
                       fix: "enable change tracking on the service: \(recipes); or set changedSince for the set in the --odata file")
        }
        guard let status = facts.deltaStatus else { return row(.changeTracking, .notChecked, "the deltaLink was not read") }
        guard status == 200 else {
            return row(.changeTracking, .fails, "the deltaLink was answered HTTP \(status)", relied: true,
                       store: "starts a full read when a deltaLink is refused, keeping local edits; every refresh would",
                       fix: "answer a deltaLink the service gave with the changes since it: \(recipes)")
        }
        guard facts.deltaListedRemoval == true else {
            return row(.changeTracking, .fails, "the delta did not list an entity deleted after the deltaLink was given",
                       relied: true, store: "trusts the delta: a deletion it does not list stays in the store",
                       fix: "list deleted entities in deltas as @removed entries: \(recipes)")
        }
        let applied = facts.trackChangesApplied ? "Preference-Applied: odata.track-changes" : "no Preference-Applied"
        return row(.changeTracking, .holds, "a read with Prefer: odata.track-changes gave a deltaLink (\(applied)), whose "
            + "delta listed the deleted scratch entity as @removed", relied: true,
                   store: "refreshes by the deltaLink: only what changed, deletions from @removed entries, its sync scope "
                       + "applied again to what the delta lists")
    }

    func paging() -> ODataServerCheck.Row {
        guard let pages = facts.pages, let listed = facts.listed else { return row(.paging, .notChecked, "the set was not read") }
        let hint = switch facts.maxPageSizeHonoured {
        case true?: "; Prefer: odata.maxpagesize=1 gave pages of one"
        case false?: "; Prefer: odata.maxpagesize is ignored"
        case nil: ""
        }
        if facts.endless {
            return row(.paging, .fails, "a read of the whole set did not end after \(pages) pages (\(listed) entities)",
                       relied: true, fix: "end a read's last page without an @odata.nextLink")
        }
        if facts.repeated > 0 {
            return row(.paging, .fails, "a read of the whole set listed \(facts.repeated) entities twice in \(pages) pages",
                       relied: true, fix: "give nextLinks that continue after the last entity of the page, without repeats")
        }
        // Another client's writes during the read change $count: only a set that held still is compared.
        var changed = ""
        if let count = facts.count, let after = facts.countAfter, count != after {
            changed = "; the set changed while it was read ($count \(count), then \(after)), so the number listed was not compared"
        } else if let count = facts.count, count != listed {
            return row(.paging, .fails, "a read of the whole set listed \(listed) entities in \(pages) pages, $count says \(count)",
                       relied: true, fix: "give nextLinks that lead through every entity of the set")
        }
        let size = facts.pageSize.map { ", pages of \($0)" } ?? ""
        let how = pages == 1 ? "one page (the set fits in it, no nextLink to follow)" : "\(pages) pages\(size), by @odata.nextLink"
        return row(.paging, .holds, "a read of the whole set listed \(listed) entities in \(how)\(hint)\(changed)",
                   relied: true)
    }

    func batch() -> ODataServerCheck.Row {
        guard let status = facts.batchStatus else { return row(.batch, .notChecked, "no $batch was sent") }
        guard status == 200 else {
            return row(.batch, .fails, "POST $batch with a JSON body was answered HTTP \(status)",
                       store: "sends one request per queued edit", fix: "enable JSON $batch on the service, if it can")
        }
        guard facts.batchListed else {
            return row(.batch, .fails, "POST $batch with a JSON body was answered 200 without a JSON \"responses\" array",
                       store: "sends one request per queued edit", fix: "answer JSON $batch requests in JSON")
        }
        return row(.batch, .holds, "POST $batch with a JSON body was answered 200 with JSON responses")
    }

    func atomicityGroups() -> ODataServerCheck.Row {
        guard facts.batchStatus == 200, facts.batchListed else { return row(.atomicityGroups, .notChecked, "the service takes no JSON $batch") }
        guard facts.groupAnswers["2"] == 412 else {
            let answer = facts.groupAnswers["2"].map { "HTTP \($0)" } ?? "not listed"
            return row(.atomicityGroups, .notChecked, "the group's stale update was \(answer), not refused with 412")
        }
        let listed = facts.groupAnswers["1"]
        switch (listed, facts.groupCreateApplied) {
        case (_, true?):
            return row(.atomicityGroups, .fails, "a group of a create and a stale update failed with 412, yet the create "
                + "was applied: the group is not atomic", relied: true,
                       fix: "roll back every request of an atomicity group when one fails")
        case (let status?, _) where (200..<300).contains(status):
            return row(.atomicityGroups, .fails, "a group of a create and a stale update failed with 412, and the answer "
                + "still lists \(status) for the create it rolled back (the entity is not there)")
        case (nil, _):
            return row(.atomicityGroups, .holds, "a group of a create and a stale update failed with 412, and the answer "
                + "lists only the failing request; the create was rolled back")
        case (let status?, _):
            return row(.atomicityGroups, .holds, "a group of a create and a stale update failed with 412; the create is "
                + "listed with HTTP \(status) and was rolled back")
        }
    }

    func deletions() -> ODataServerCheck.Row {
        if tracksChanges {
            return row(.deletions, .holds, "the delta lists deletions: a refresh reads only what changed",
                       store: "finds deletions in the delta: no full read needed")
        }
        let size = facts.pageSize ?? facts.listed ?? 0
        let total = facts.count ?? facts.listed
        guard let total else { return row(.deletions, .notChecked, "the set's size is not known") }
        let requests = size > 0 ? (total + size - 1) / size : 1
        let pageText = facts.pageSize.map { "pages of \($0)" } ?? "one page"
        return row(.deletions, .fails, "without a delta, deletions are found only by reading the whole set: \(total) "
            + "entities in \(pageText), \(max(requests, 1)) request\(requests > 1 ? "s" : "") per full read",
                   store: "reads the whole set at every refresh, or with changedSince set only every sweepEvery refreshes, "
                       + "by key, in two key ranges at once after the first page where the key is a Guid or an integer "
                       + "(one request more, for the largest key), and removes the synced entities it no longer lists",
                   fix: "enable change tracking on the service (\(recipes)); or set changedSince and sweepEvery for the set "
                       + "in the --odata file")
    }
}
