import Foundation
import OfflineStore
import Testing

/// KintoBackend against the real Kinto started by the test scripts (`KINTO_URL`), plus
/// scripted answers for what the memory backend cannot produce.
@Suite struct KintoBackendTests {
    let collection = KintoServer.uniqueName("c")

    // MARK: Helpers

    private func op(_ kind: QueueEntry.Kind, _ id: String, _ data: JSONValue? = nil, base: String? = nil) -> PushOperation {
        PushOperation(id: id, kind: kind, data: data, baseVersion: base, idempotencyKey: UUID().uuidString)
    }

    private func prepared(pageSize: Int = 500, lookBack: Duration = .seconds(5), countsRecords: Bool = false) async throws -> KintoBackend {
        let backend = try KintoServer.backend(pageSize: pageSize, lookBack: lookBack, countsRecords: countsRecords)
        try await backend.prepare(collection: collection)
        return backend
    }

    private func applied(_ outcome: PushOutcome) throws -> (record: JSONValue?, version: String?) {
        guard case .applied(let record, let version) = outcome else {
            Issue.record("expected applied, got \(outcome)")
            throw CancellationError()
        }
        return (record, version)
    }

    private func number(_ version: String?) throws -> Int64 { try #require(version.flatMap { Int64($0) }) }

    /// Creates records `r1…rN` one by one (so versions grow) and returns their versions.
    private func createRecords(_ count: Int, on backend: KintoBackend) async throws -> [String] {
        var versions: [String] = []
        for n in 1...count {
            let outcome = try await backend.push([op(.create, "r\(n)", ["n": .int(Int64(n))])], collection: collection)
            versions.append(try #require(try applied(outcome[0]).version))
        }
        return versions
    }

    /// Pulls every page, returning the pages.
    private func pullAll(_ backend: KintoBackend, since cursor: String?) async throws -> [PullPage] {
        var pages = [try await backend.pull(PullRequest(collection: collection, cursor: cursor))]
        while let next = pages.last?.next {
            pages.append(try await backend.pull(PullRequest(collection: collection, cursor: cursor, continuation: next)))
        }
        return pages
    }

    private func expectError(_ code: OfflineStoreError.Code, sourceLocation: SourceLocation = #_sourceLocation,
                             _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
        } catch let error as OfflineStoreError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Push

    @Test(.liveServer) func createUpdateDeleteRoundTripWithVersions() async throws {
        let backend = try await prepared()
        let created = try applied(try await backend.push([op(.create, "a", ["id": "a", "title": "one"])], collection: collection)[0])
        #expect(created.record == ["id": "a", "title": "one"])
        let v1 = try #require(created.version)
        let updated = try applied(try await backend.push([op(.update, "a", ["id": "a", "title": "two"], base: v1)],
                                                         collection: collection)[0])
        #expect(updated.record == ["id": "a", "title": "two"])
        let v2 = try #require(updated.version)
        #expect(try number(v2) > number(v1))
        let deleted = try applied(try await backend.push([op(.delete, "a", base: v2)], collection: collection)[0])
        #expect(deleted.record == nil)
        #expect(try number(deleted.version) > number(v2))
    }

    @Test(.liveServer) func createOnExistingIDIsConflictWithServerCopy() async throws {
        let backend = try await prepared()
        let v1 = try applied(try await backend.push([op(.create, "a", ["t": 1])], collection: collection)[0]).version
        let outcome = try await backend.push([op(.create, "a", ["t": 2])], collection: collection)
        #expect(outcome == [.conflict(server: ["id": "a", "t": 1], version: v1)])
    }

    @Test(.liveServer) func staleIfMatchIsConflictWithExisting() async throws {
        let backend = try await prepared()
        let v1 = try #require(try applied(try await backend.push([op(.create, "a", ["t": 1])], collection: collection)[0]).version)
        let v2 = try applied(try await backend.push([op(.update, "a", ["t": 2], base: v1)], collection: collection)[0]).version
        let stale = try await backend.push([op(.update, "a", ["t": 3], base: v1)], collection: collection)
        #expect(stale == [.conflict(server: ["id": "a", "t": 2], version: v2)])
        let staleDelete = try await backend.push([op(.delete, "a", base: v1)], collection: collection)
        #expect(staleDelete == [.conflict(server: ["id": "a", "t": 2], version: v2)])
    }

    @Test(.liveServer) func updateOfServerDeletedRecordIsConflictWithoutServerCopy() async throws {
        let backend = try await prepared()
        let v1 = try #require(try applied(try await backend.push([op(.create, "a", ["t": 1])], collection: collection)[0]).version)
        _ = try await backend.push([op(.delete, "a", base: v1)], collection: collection)
        let outcome = try await backend.push([op(.update, "a", ["t": 2], base: v1)], collection: collection)
        #expect(outcome == [.conflict(server: nil, version: nil)])
    }

    @Test(.liveServer) func deleteOfMissingRecordIsApplied() async throws {
        let backend = try await prepared()
        #expect(try await backend.push([op(.delete, "nope")], collection: collection) == [.applied(record: nil, version: nil)])
        #expect(try await backend.push([op(.delete, "nope", base: "123")], collection: collection)
            == [.applied(record: nil, version: nil)])
    }

    @Test(.liveServer) func clientLastModifiedIsStripped() async throws {
        let backend = try await prepared()
        let result = try applied(try await backend.push([op(.create, "a", ["t": 1, "last_modified": 1_700_000_000_000])],
                                                        collection: collection)[0])
        #expect(result.version != "1700000000000")
        #expect(result.record == ["id": "a", "t": 1])
    }

    @Test(.liveServer) func moreOperationsThanTheBatchLimitAreSplit() async throws {
        let backend = try await prepared()
        #expect(try await backend.capabilities().maxBatchSize == 25)
        let ops = (1...60).map { op(.create, "r\($0)", ["n": .int(Int64($0))]) }
        let outcomes = try await backend.push(ops, collection: collection)
        #expect(outcomes.count == 60)
        let versions = try outcomes.map { try #require(try applied($0).version) }
        #expect(Set(versions).count == 60)
        let pulled = try await pullAll(backend, since: nil).flatMap(\.changes)
        #expect(Set(pulled.map(\.id)) == Set(ops.map(\.id)))
    }

    @Test(.liveServer) func batchMapsEveryOutcome() async throws {
        let backend = try await prepared()
        let v1 = try #require(try applied(try await backend.push([op(.create, "old", ["t": 1])], collection: collection)[0]).version)
        let outcomes = try await backend.push([
            op(.create, "new", ["t": 9]), op(.create, "old", ["t": 2]), op(.update, "old", ["t": 3], base: "1"),
            op(.delete, "missing"), op(.create, "../x", ["t": 4]), op(.create, "a.b", ["t": 5]),
        ], collection: collection)
        #expect(outcomes.count == 6)
        #expect(try applied(outcomes[0]).record == ["id": "new", "t": 9])
        #expect(outcomes[1] == .conflict(server: ["id": "old", "t": 1], version: v1))
        #expect(outcomes[2] == .conflict(server: ["id": "old", "t": 1], version: v1))
        #expect(outcomes[3] == .applied(record: nil, version: nil))
        for outcome in outcomes[4...] {
            guard case .rejected(let status, _) = outcome else { Issue.record("\(outcome)"); continue }
            #expect((400..<500).contains(status))
        }
        let ids = try await pullAll(backend, since: nil).flatMap(\.changes).map(\.id)
        #expect(Set(ids) == ["old", "new"])
    }

    // MARK: Pull

    @Test(.liveServer, arguments: [false, true])
    func pullsAFreshCollectionInBoundedPages(countsRecords: Bool) async throws {
        let backend = try await prepared(pageSize: 3, countsRecords: countsRecords)
        let versions = try await createRecords(7, on: backend)
        let pages = try await pullAll(backend, since: nil)
        // Each page starts at the last timestamp of the one before (KintoPageBoundary: a change
        // sharing it is not skipped), so that change is listed again, at the same version.
        #expect(pages.map { $0.changes.map(\.id) } == [["r1", "r2", "r3"], ["r3", "r4", "r5"], ["r5", "r6", "r7"]])
        #expect(pages.map { $0.changes.map(\.version) }
                == [Array(versions[0...2]), Array(versions[2...4]), Array(versions[4...6])])
        #expect(pages.map(\.cursor) == [versions[2], versions[4], versions[6]])
        #expect(pages.last?.next == nil)
        // The total comes from the HEAD that countsRecords asks; without it there is none.
        #expect(pages.allSatisfy { $0.total == (countsRecords ? 7 : nil) })
    }

    @Test(.liveServer) func emptyCollectionPullsOnePageWithTheCollectionTimestamp() async throws {
        let backend = try await prepared()
        let page = try await backend.pull(PullRequest(collection: collection))
        #expect(page.changes.isEmpty && page.next == nil)
        #expect(page.cursor.flatMap { Int64($0) } != nil)
    }

    @Test(.liveServer) func tombstonesComeBackWithoutRecord() async throws {
        let backend = try await prepared()
        let versions = try await createRecords(3, on: backend)
        let deleted = try applied(try await backend.push([op(.delete, "r2", base: versions[1])], collection: collection)[0])
        let changes = try await pullAll(backend, since: nil).flatMap(\.changes)
        #expect(changes.count == 3)
        let tombstone = changes.first { $0.id == "r2" }
        #expect(tombstone == RemoteChange(id: "r2", record: nil, version: try #require(deleted.version)))
        #expect(changes.first { $0.id == "r1" }?.record == ["id": "r1", "n": 1])
    }

    @Test(.liveServer, arguments: [false, true])
    func recordChangedBetweenPagesIsNotLost(countsRecords: Bool) async throws {
        let backend = try await prepared(pageSize: 3, countsRecords: countsRecords)
        let versions = try await createRecords(7, on: backend)
        let first = try await backend.pull(PullRequest(collection: collection))
        #expect(first.changes.map(\.id) == ["r1", "r2", "r3"])
        let r1 = try applied(try await backend.push([op(.update, "r1", ["n": 10], base: versions[0])], collection: collection)[0])
        let r5 = try applied(try await backend.push([op(.update, "r5", ["n": 50], base: versions[4])], collection: collection)[0])
        var pages = [first]
        while let next = pages.last?.next {
            pages.append(try await backend.pull(PullRequest(collection: collection, continuation: next)))
        }
        let finalCursor = try #require(pages.last?.cursor)
        #expect(finalCursor == versions[6], "the pull is bounded by the timestamp seen at its start")
        let again = try await pullAll(backend, since: finalCursor).flatMap(\.changes)
        let seen = pages.flatMap(\.changes) + again
        #expect(seen.contains(RemoteChange(id: "r1", record: ["id": "r1", "n": 10], version: try #require(r1.version))))
        #expect(seen.contains(RemoteChange(id: "r5", record: ["id": "r5", "n": 50], version: try #require(r5.version))))
        // Bounded by _before (countsRecords), r5's new version waits for the next pull (its old
        // one is on page 2 when the page, asked as soon as page 1's head came, was read before the
        // update); bounded by the first answer's ETag only, it may come on a later page of this one.
        let ids = Set(pages.flatMap(\.changes).map(\.id))
        if countsRecords {
            #expect(ids.subtracting(["r5"]) == ["r1", "r2", "r3", "r4", "r6", "r7"])
            #expect(!pages.flatMap(\.changes).contains { $0.id == "r5" && $0.version == r5.version })
        } else {
            #expect(ids == ["r1", "r2", "r3", "r4", "r5", "r6", "r7"])
        }
    }

    @Test(.liveServer) func pullFromFinalCursorReturnsLaterChangesAndSameVersionsOnLookBack() async throws {
        let backend = try await prepared(pageSize: 4)
        let versions = try await createRecords(5, on: backend)
        let firstPull = try await pullAll(backend, since: nil)
        let cursor = try #require(firstPull.last?.cursor)
        // A page starts at the previous page's last timestamp (KintoPageBoundary), so the change
        // there is listed twice: at the same version both times.
        var known: [String: String] = [:]
        for change in firstPull.flatMap(\.changes) {
            #expect(known[change.id] == nil || known[change.id] == change.version, "\(change.id) listed at two versions")
            known[change.id] = change.version
        }
        #expect(known.keys.sorted() == ["r1", "r2", "r3", "r4", "r5"])
        let r2 = try applied(try await backend.push([op(.update, "r2", ["n": 20], base: versions[1])], collection: collection)[0])
        let r8 = try applied(try await backend.push([op(.create, "r8", ["n": 8])], collection: collection)[0])
        let later = try await pullAll(backend, since: cursor).flatMap(\.changes)
        let fresh = later.filter { known[$0.id] != $0.version }
        #expect(fresh == [RemoteChange(id: "r2", record: ["id": "r2", "n": 20], version: try #require(r2.version)),
                          RemoteChange(id: "r8", record: ["id": "r8", "n": 8], version: try #require(r8.version))])
        let exact = try KintoServer.backend(bucket: backend.configuration.bucket, lookBack: .zero)
        #expect(try await pullAll(exact, since: cursor).flatMap(\.changes).map(\.id) == ["r2", "r8"])
    }

    @Test(.liveServer) func pullOfMissingCollectionIsEmptyAndKeepsTheCursor() async throws {
        let backend = try await prepared()
        let page = try await backend.pull(PullRequest(collection: KintoServer.uniqueName("missing"), cursor: "42"))
        #expect(page.changes.isEmpty && page.cursor == nil && page.next == nil)
    }

    @Test(.liveServer) func foreignContinuationIsRefused() async throws {
        let backend = try await prepared()
        await expectError(.invalidOperation) {
            _ = try await backend.pull(PullRequest(collection: collection, continuation: PullContinuation(token: #"{"next":"http://127.0.0.2/v1/x","bound":1}"#)))
        }
    }

    // MARK: Validation, auth, connectivity

    @Test(.liveServer) func validateFollowsKintosIDRule() throws {
        let backend = try KintoServer.backend()
        for good in ["a", "A9", "abc_D-1", String(repeating: "x", count: 300)] { try backend.validate(id: good) }
        for bad in ["", "a.b", "_x", "-x", "../x", "a/b", "é", "a b"] {
            expectStoreError(.invalidID) { try backend.validate(id: bad) }
            do { try backend.validate(id: bad) } catch let error as OfflineStoreError {
                #expect(error.code == .invalidID && error.message.contains("^[a-zA-Z0-9][a-zA-Z0-9_-]*$"))
            }
        }
    }

    @Test(.liveServer) func badBearerTokenIsUnauthorized() async throws {
        let owner = try await prepared()
        let backend = try KintoServer.backend(bucket: owner.configuration.bucket, auth: .bearer("not-a-token"))
        await expectError(.unauthorized) { try await backend.prepare(collection: collection) }
        await expectError(.unauthorized) { _ = try await backend.push([op(.create, "a", ["t": 1])], collection: collection) }
        await expectError(.unauthorized) { _ = try await backend.pull(PullRequest(collection: collection)) }
        await expectError(.unauthorized) { try await backend.ping() }
    }

    @Test(.liveServer) func anotherUserCannotUseAPrivateBucketButCanUseASharedOne() async throws {
        let url = try KintoServer.url()
        for shared in [false, true] {
            let bucket = KintoServer.uniqueName("b")
            let alice = KintoServer.backend(server: url, bucket: bucket, timeout: .seconds(30), pageSize: 10_000,
                                                shareBucketWithAuthenticatedUsers: shared)
            let bob = try KintoServer.backend(bucket: bucket, auth: .basic(user: "bob", password: "x"))
            try await alice.prepare(collection: collection)
            if shared {
                try await bob.prepare(collection: collection)
                _ = try applied(try await bob.push([op(.create, "b1", ["t": 1])], collection: collection)[0])
                #expect(try await alice.pull(PullRequest(collection: collection)).changes.map(\.id) == ["b1"])
            } else {
                // 403: about this collection, not the credentials (Docs/Auth.md, "Sharing and lost access").
                await expectError(.forbidden) { try await bob.prepare(collection: collection) }
                let refused = try await bob.push([op(.create, "b1", ["t": 1])], collection: collection)
                guard case .rejected(403, _)? = refused.first else {
                    Issue.record("a create in another user's private bucket is refused with 403: \(refused)")
                    continue
                }
                #expect(try await alice.pull(PullRequest(collection: collection)).changes.isEmpty)
            }
        }
    }

    @Test(.liveServer) func pingAndCapabilitiesOnTheRealServer() async throws {
        let backend = try KintoServer.backend()
        try await backend.ping()
        #expect(try await backend.capabilities() == BackendCapabilities(maxBatchSize: 25))
    }

    /// A read of the collection (or bucket) that succeeds with something other than Kinto's
    /// JSON, as a proxy's HTML page, is a `badResponse`: read as a collection without
    /// permissions it made a writable collection read-only (seen through the fault proxy).
    @Test func aCollectionReadThatIsNotKintoJSONIsABadResponseNotReadOnly() async throws {
        let html = HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"],
                                body: Data("<html><body><h1>Bad Gateway</h1></body></html>".utf8))
        let exists = ScriptedTransport.json(412, ["code": 412, "errno": 114, "error": "Precondition Failed"])
        let onCollection = ScriptedTransport([exists, exists, html])
        await expectError(.badResponse) { _ = try await onCollection.backend().prepareAccess(collection: "c") }
        let noPermissions = ScriptedTransport.json(200, ["data": ["id": "c", "last_modified": 1]])
        let onBucket = ScriptedTransport([exists, exists, noPermissions, html])
        await expectError(.badResponse) { _ = try await onBucket.backend().prepareAccess(collection: "c") }
        #expect(onBucket.sent.map(\.method) == ["PUT", "PUT", "GET", "GET"])
    }

    @Test func refusedConnectionIsOffline() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:\(KintoServer.closedPort())/v1"))
        let backend = KintoBackend(configuration: .init(serverURL: url, auth: .basic(user: "alice", password: "secret")))
        await expectError(.offline) { try await backend.ping() }
        await expectError(.offline) { try await backend.prepare(collection: collection) }
        await expectError(.offline) { _ = try await backend.push([op(.delete, "a")], collection: collection) }
        await expectError(.offline) { _ = try await backend.pull(PullRequest(collection: collection)) }
    }

    @Test func silentServerIsATimeout() async throws {
        try await KintoServer.withSilentServer { port in
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/v1"))
            let backend = KintoBackend(configuration: .init(serverURL: url, timeout: .seconds(1)))
            await expectError(.timeout) { _ = try await backend.push([op(.delete, "a")], collection: collection) }
        }
    }

    @Test func credentialsNeverAppearInDescriptionsOrErrors() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:\(KintoServer.closedPort())/v1"))
        for auth in [KintoAuth.basic(user: "alice", password: "hunter2"), .bearer("hunter2")] {
            let backend = KintoBackend(configuration: .init(serverURL: url, auth: auth))
            var dumped = ""
            dump(backend.configuration, to: &dumped)
            for text in [String(describing: backend), String(reflecting: backend.configuration), dumped] {
                #expect(!text.contains("hunter2"))
            }
            do { try await backend.ping() } catch { #expect(!String(describing: error).contains("hunter2")) }
        }
    }
}

/// KintoBackend against scripted answers: Backoff, 409 batches, 5xx and malformed bodies.
@Suite struct KintoBackendScriptedTests {
    private let record: JSONValue = ["data": ["id": "a", "t": 1, "last_modified": 5]]

    private func op(_ kind: QueueEntry.Kind, _ id: String = "a", base: String? = nil) -> PushOperation {
        PushOperation(id: id, kind: kind, data: kind == .delete ? nil : ["t": 1, "last_modified": 3],
                      baseVersion: base, idempotencyKey: "key-\(id)")
    }

    private func error(_ body: () async throws -> Void) async -> OfflineStoreError? {
        do { try await body() } catch let error as OfflineStoreError { return error } catch {
            Issue.record("unexpected \(error)")
        }
        return nil
    }

    @Test func requestsCarryPreconditionsAndNoServerFields() async throws {
        let transport = ScriptedTransport([ScriptedTransport.json(200, record), ScriptedTransport.json(201, record)])
        let backend = transport.backend()
        _ = try await backend.push([op(.update, base: "17")], collection: "c")
        _ = try await backend.push([op(.create)], collection: "c")
        let (update, create) = (transport.sent[0], transport.sent[1])
        #expect(update.method == "PUT" && update.url.absoluteString == "http://127.0.0.1:9/v1/buckets/b/collections/c/records/a")
        #expect(update.header("If-Match") == "\"17\"" && update.header("Idempotency-Key") == "key-a")
        #expect(create.header("If-None-Match") == "*" && create.header("If-Match") == nil)
        #expect(try JSONValue(parsing: try #require(create.body)) == ["data": ["t": 1]])
        #expect(create.header("Authorization") == "Basic YWxpY2U6c2VjcmV0")
    }

    @Test func backoffIsHonouredUntilTheInjectedClockPassesIt() async throws {
        let clock = TestClock()
        let transport = ScriptedTransport([ScriptedTransport.json(201, record, headers: ["Backoff": "10"])])
        let backend = transport.backend(clock: clock)
        #expect(try await backend.push([op(.create)], collection: "c") == [.applied(record: ["id": "a", "t": 1], version: "5")])
        let refused = await error { _ = try await backend.push([op(.create)], collection: "c") }
        #expect(refused?.code == .server && refused?.retryAfter == .seconds(10))
        clock.advance(seconds: 9)
        let pullRefused = await error { _ = try await backend.pull(PullRequest(collection: "c")) }
        #expect(pullRefused?.code == .server && pullRefused?.retryAfter == .seconds(1))
        #expect(transport.sent.count == 1)
        clock.advance(seconds: 1.5)
        transport.enqueue(ScriptedTransport.json(201, record))
        _ = try await backend.push([op(.create)], collection: "c")
        #expect(transport.sent.count == 2)
    }

    @Test func serviceUnavailableThrowsWithRetryAfterAndBacksOff() async throws {
        let transport = ScriptedTransport([ScriptedTransport.json(503, ["code": 503, "message": "down"],
                                                                  headers: ["Retry-After": "3"])])
        let backend = transport.backend()
        let failed = await error { _ = try await backend.push([op(.delete)], collection: "c") }
        #expect(failed?.code == .server && failed?.status == 503 && failed?.retryAfter == .seconds(3))
        let refused = await error { _ = try await backend.push([op(.delete)], collection: "c") }
        #expect(refused?.code == .server && refused?.status == nil)
        #expect(transport.sent.count == 1)
    }

    @Test func aDirect409WithoutTheRecordIsRetriedNotTakenForADelete() async throws {
        let transport = ScriptedTransport([ScriptedTransport.json(409, ["code": 409, "errno": 122, "message": "Integrity conflict"],
                                                                  headers: ["Retry-After": "3"])])
        let outcomes = try await transport.backend().push([op(.update, base: "17")], collection: "c")
        guard case .retry(let status, _, _)? = outcomes.first else {
            Issue.record("expected .retry, got \(outcomes)")
            return
        }
        #expect(status == 409)
    }

    @Test func batchWithA409IsRetriedWhole() async throws {
        let transport = ScriptedTransport([
            ScriptedTransport.json(200, ["settings": ["batch_max_requests": 25]]),
            ScriptedTransport.json(200, ["responses": [["status": 201, "body": record],
                                                       ["status": 409, "headers": ["Retry-After": "3"], "body": ["code": 409]]]]),
        ])
        let outcomes = try await transport.backend().push([op(.create), op(.create, "b")], collection: "c")
        #expect(outcomes.count == 2)
        for outcome in outcomes {
            guard case .retry(409, _, let retryAfter) = outcome else { Issue.record("\(outcome)"); continue }
            #expect(retryAfter == .seconds(3))
        }
        #expect(transport.sent[1].url.absoluteString == "http://127.0.0.1:9/v1/batch")
    }

    @Test func batchItemsMapTo5xxRetryAnd401Throws() async throws {
        let transport = ScriptedTransport([
            ScriptedTransport.json(200, ["settings": [:]]),
            ScriptedTransport.json(200, ["responses": [["status": 200, "body": record], ["status": 502, "body": ["message": "gw"]]]]),
            ScriptedTransport.json(200, ["responses": [["status": 200, "body": record], ["status": 401, "body": [:]]]]),
        ])
        let backend = transport.backend()
        let outcomes = try await backend.push([op(.update, base: "4"), op(.delete, "b")], collection: "c")
        #expect(outcomes == [.applied(record: ["id": "a", "t": 1], version: "5"),
                             .retry(status: 502, message: "gw", retryAfter: nil)])
        let refused = await error { _ = try await backend.push([op(.create), op(.create, "b")], collection: "c") }
        #expect(refused?.code == .unauthorized && refused?.status == 401)
    }

    @Test func malformedAnswersAreBadResponsesThatKeepTheStatus() async throws {
        let garbage = HTTPResponse(status: 201, body: Data("{\"data\": [1,".utf8))
        let transport = ScriptedTransport([garbage, garbage])
        let backend = transport.backend()
        let pushed = await error { _ = try await backend.push([op(.create)], collection: "c") }
        #expect(pushed?.code == .badResponse && pushed?.status == 201)
        let pulled = await error { _ = try await backend.pull(PullRequest(collection: "c")) }
        #expect(pulled?.code == .badResponse && pulled?.status == 201)
    }

    @Test func onlyBareDeletedRecordsAreTombstonesAndPagesAreDeduplicated() async throws {
        let page: JSONValue = ["data": [
            ["id": "x", "n": 1, "last_modified": 3], ["id": "gone", "deleted": true, "last_modified": 4],
            ["id": "soft", "deleted": true, "n": 2, "last_modified": 5], ["id": "x", "n": 9, "last_modified": 6],
        ]]
        let transport = ScriptedTransport([HTTPResponse(status: 200, headers: ["ETag": "\"6\"", "Total-Records": "3"]),
                                           ScriptedTransport.json(200, page)])
        let result = try await transport.backend(countsRecords: true).pull(PullRequest(collection: "c", cursor: "100"))
        #expect(result.changes == [RemoteChange(id: "gone", record: nil, version: "4"),
                                   RemoteChange(id: "soft", record: ["id": "soft", "deleted": true, "n": 2], version: "5"),
                                   RemoteChange(id: "x", record: ["id": "x", "n": 9], version: "6")])
        #expect(result.cursor == "6" && result.next == nil && result.total == 3)
        #expect(transport.sent.map(\.method) == ["HEAD", "GET"])
        #expect(transport.sent[1].url.query == "_since=0&_before=7&_sort=last_modified&_limit=10000")
    }

    @Test func byDefaultAPullAsksNoHeadAndIsBoundedByItsFirstAnswersETag() async throws {
        let page: JSONValue = ["data": [["id": "x", "n": 1, "last_modified": 5], ["id": "gone", "deleted": true, "last_modified": 6]]]
        let transport = ScriptedTransport([ScriptedTransport.json(200, page, headers: ["ETag": "\"9\""]),
                                           ScriptedTransport.json(200, page, headers: ["ETag": "\"9\""]),
                                           ScriptedTransport.json(200, page)])
        let backend = transport.backend()
        let first = try await backend.pull(PullRequest(collection: "c"))
        #expect(first.cursor == "9" && first.total == nil)
        #expect(first.changes.map(\.id) == ["x", "gone"])
        #expect(transport.sent.map(\.method) == ["GET"])
        #expect(transport.sent[0].url.query == "_since=0&_sort=last_modified&_limit=10000", "since 0: tombstones included")
        // A store holding no server copy may leave deletions out: live records only, no `_since`.
        _ = try await backend.pull(PullRequest(collection: "c", hints: .init(needsDeletions: false)))
        #expect(transport.sent[1].url.query == "_sort=last_modified&_limit=10000")
        // An answer without a timestamp cannot bound the pull: a typed error, nothing half-read.
        let unbounded = await error { _ = try await backend.pull(PullRequest(collection: "c", cursor: "100")) }
        #expect(unbounded?.code == .badResponse)
    }
}
