import Foundation
import OfflineStore

/// The probe's steps, in the order ``ODataServerProbe/run(sample:)`` takes them.
extension ODataServerProbe {
    /// An ETag that no entity has: a write that names it is stale on any service.
    static let staleETag = "W/\"offline-store-check-stale\""

    /// `$count`, a read of the whole set with `Prefer: odata.track-changes` (pages, repeats,
    /// the deltaLink), and one read with `Prefer: odata.maxpagesize=1`. Returns the deltaLink.
    func readWhole(_ facts: inout ODataProbeFacts) async throws -> String? {
        facts.count = try await count()
        var target: String? = set.name, deltaLink: String?, seen = Set<String>()
        var pages = 0, listed = 0
        let limit = (facts.count ?? 99_990) + 10
        while let next = target, pages < limit {
            let answer = try await client.send("GET", next, headers: pages == 0 ? ["Prefer": "odata.track-changes"] : [:])
            if pages == 0 {
                facts.trackChangesApplied = answer.header("preference-applied")?.lowercased().contains("odata.track-changes") == true
            }
            let page = try read(answer, what: "page \(pages + 1) of \(set.name)")
            pages += 1
            listed += page.entities.count
            for entity in page.entities {
                if let id = try? set.id(of: entity.properties), !seen.insert(id).inserted { facts.repeated += 1 }
            }
            if pages == 1, page.nextLink != nil { facts.pageSize = page.entities.count }
            deltaLink = page.deltaLink ?? deltaLink
            target = page.nextLink
        }
        (facts.pages, facts.listed, facts.endless, facts.deltaLink) = (pages, listed, target != nil, deltaLink != nil)
        facts.countAfter = try await count()
        let hinted = try await client.send("GET", set.name, headers: ["Prefer": "odata.maxpagesize=1"])
        let first = try read(hinted, what: "a page of \(set.name) with odata.maxpagesize=1")
        facts.maxPageSizeHonoured = first.entities.count == 1 && first.nextLink != nil
        return deltaLink
    }

    /// The set's `$count`, or nil when the service does not answer it.
    func count() async throws -> Int? {
        let answer = try await client.send("GET", set.name + "/$count", headers: ["Accept": "text/plain"])
        guard answer.status == 200 else { return nil }
        return Int(String(decoding: answer.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// A page, or `Stop` naming what could not be read.
    func read(_ answer: HTTPResponse, what: String) throws -> ODataPageOutline {
        guard answer.status == 200 else {
            throw Stop(reason: "\(what) was answered HTTP \(answer.status): \(ODataProbeClient.summary(answer))")
        }
        do { return try ODataPageOutline.read(answer.body) } catch let error as OfflineStoreError {
            throw Stop(reason: "\(what) cannot be read: \(error.message)")
        }
    }

    /// The entity's current ETag, read back (nil when it has none or is gone).
    func currentETag(_ id: String) async throws -> String? {
        let answer = try await client.send("GET", try set.entityPath(id))
        guard answer.status == 200 else { return nil }
        return answer.header("etag") ?? ODataProbeClient.json(answer)?["@odata.etag"]?.stringValue
    }

    /// Updates the scratch entity on its ETag until the ETag changes (a service whose ETag is
    /// the time in milliseconds gives the same one to writes within one).
    func updateChanging(_ scratch: Scratch, facts: inout ODataProbeFacts) async throws -> Scratch {
        var current = scratch
        for _ in 0..<3 {
            let change = try varied(current.fields)
            let answer = try await client.send("PATCH", try set.entityPath(current.id),
                                               headers: ["If-Match": current.etag ?? "*"], body: .object(change))
            guard (200..<300).contains(answer.status) else {
                throw Stop(reason: "an update of the scratch entity on its current ETag was answered HTTP \(answer.status): "
                    + ODataProbeClient.summary(answer))
            }
            current.fields.merge(change) { _, new in new }
            let etag = try await currentETag(current.id)
            defer { current.etag = etag }
            if etag == nil || etag != current.etag { break }
        }
        facts.updatedETag = current.etag
        return current
    }

    /// An update with the ETag before the last update, then one without `If-Match`.
    func staleWrites(_ scratch: inout Scratch, stale: String?, facts: inout ODataProbeFacts) async throws {
        let path = try set.entityPath(scratch.id)
        if let stale, facts.updatedETag != nil, stale != facts.updatedETag {
            let answer = try await client.send("PATCH", path, headers: ["If-Match": stale], body: .object(try varied(scratch.fields)))
            facts.staleUpdateStatus = answer.status
        } else if stale != nil, facts.updatedETag != nil {
            facts.unchecked[.staleUpdate] = "the ETag did not change in three updates (\(stale ?? ""))"
        }
        let answer = try await client.send("PATCH", path, body: .object(try varied(scratch.fields)))
        facts.noIfMatchStatus = answer.status
        scratch.etag = try await currentETag(scratch.id)
    }

    /// The create of the scratch entity sent again, with its key.
    func resendCreate(_ scratch: Scratch, facts: inout ODataProbeFacts) async throws {
        guard !set.serverAssignsKey else {
            facts.unchecked[.resentCreate] = "the service assigns the keys of \(set.name): a create sent again has no key "
                + "to repeat, so the service cannot tell it from a new one"
            return
        }
        let answer = try await client.send("POST", set.name, body: .object(scratch.fields))
        facts.resentCreateStatus = answer.status
        if !(200..<300).contains(answer.status) { facts.resentCreateBody = ODataProbeClient.summary(answer) }
    }

    /// Deletes the scratch entity on its current ETag, then sends the same delete again.
    func deleteTwice(_ scratch: Scratch, facts: inout ODataProbeFacts) async throws {
        let path = try set.entityPath(scratch.id)
        let etag = try await currentETag(scratch.id) ?? "*"
        let answer = try await client.send("DELETE", path, headers: ["If-Match": etag])
        guard (200..<300).contains(answer.status) else {
            throw Stop(reason: "a delete of the scratch entity on its current ETag was answered HTTP \(answer.status): "
                + ODataProbeClient.summary(answer))
        }
        facts.resentDeleteStatus = try await client.send("DELETE", path, headers: ["If-Match": etag]).status
    }

    /// Reads the deltaLink taken before the scratch entity was deleted: is it listed as removed?
    func readDelta(_ link: String?, deleted: Scratch, facts: inout ODataProbeFacts) async throws {
        guard let link else { return }
        let answer = try await client.send("GET", link)
        facts.deltaStatus = answer.status
        guard answer.status == 200 else { return }
        let page = try read(answer, what: "the delta of \(set.name)")
        let byID = page.removedEntityIDs.compactMap { $0 }.contains { (try? set.id(ofEntityID: $0)) == deleted.id }
        let byKey = page.removedKeys.contains { (try? set.id(of: $0)) == deleted.id }
        facts.deltaListedRemoval = byID || byKey
    }

    /// A JSON `$batch` with one atomicity group: a create, then an update of `target` with a
    /// stale ETag. What does the answer list, and is the create there afterwards?
    func batchGroup(_ fields: [String: JSONValue], target: Scratch, facts: inout ODataProbeFacts,
                    made: inout [Scratch]) async throws {
        var body = fields
        let key = newKey()
        if let key, let property = set.keyProperty { body[property] = key }
        // Where the server assigns the key, the create is found by a text of its own (a count
        // before and after would also count other clients' writes).
        let marker = "offline-store-check-group-" + UUID().uuidString.lowercased()
        let marked = key == nil ? fields.keys.sorted().first { fields[$0]?.stringValue != nil && $0 != set.keyProperty
            && !set.computed.contains($0) } : nil
        if let marked { body[marked] = .string(marker) }
        let before = try await count()
        let requests: JSONValue = ["requests": [
            ["id": "1", "atomicityGroup": "g", "method": "POST", "url": .string(set.name),
             "headers": ["content-type": "application/json"], "body": .object(body)],
            ["id": "2", "atomicityGroup": "g", "method": "PATCH", "url": .string(try set.entityPath(target.id)),
             "headers": ["content-type": "application/json", "if-match": .string(Self.staleETag)],
             "body": .object(try varied(target.fields))],
        ]]
        let answer = try await client.send("POST", "$batch", body: requests)
        facts.batchStatus = answer.status
        guard answer.status == 200, let responses = ODataProbeClient.json(answer)?["responses"]?.arrayValue else { return }
        facts.batchListed = true
        for response in responses {
            guard let id = response["id"]?.stringValue, let status = response["status"]?.intValue else { continue }
            facts.groupAnswers[id] = Int(status)
        }
        if let key, let property = set.keyProperty, let id = try? set.id(of: [property: key]) {
            let applied = try await client.send("GET", try set.entityPath(id)).status == 200
            facts.groupCreateApplied = applied
            if applied { made.append(Scratch(id: id, etag: nil, fields: body)) }
        } else if let marked {
            let filter = "\(marked) eq '\(marker)'".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let found = try await client.send("GET", set.name + "?$filter=" + filter)
            if found.status == 200, let rows = ODataProbeClient.json(found)?["value"]?.arrayValue {
                facts.groupCreateApplied = !rows.isEmpty
                for row in rows { if let entity = row.objectValue, let id = try? set.id(of: entity) { made.append(Scratch(id: id, etag: nil, fields: body)) } }
            }
        } else if let before, let after = try await count() {
            facts.groupCreateApplied = after > before
        }
    }
}
