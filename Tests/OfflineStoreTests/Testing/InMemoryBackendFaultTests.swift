import Foundation
import OfflineStore
import OfflineStoreTesting
import Testing

/// Injected faults of `InMemoryBackend`: what each throws or answers, and what it applies.
@Suite struct InMemoryBackendFaultTests {
    let v0 = PushFixture.firstVersion
    let create = PushFixture.create("a", ["title": "one"])

    @Test func aServerErrorThrowsWithRetryAfterAndAppliesNothing() async throws {
        let backend = PushFixture.backend()
        backend.inject(.status(503, retryAfter: .seconds(3)))
        let error = try await #require(throws: OfflineStoreError.self) {
            try await backend.push([create], collection: "todos")
        }
        #expect(error.code == .server)
        #expect(error.status == 503)
        #expect(error.retryAfter == .seconds(3))
        #expect(backend.allRecords(collection: "todos").isEmpty)
        #expect(backend.writeCount == 0)
        #expect(backend.pushCallCount == 1)
        #expect(try await backend.push([create], collection: "todos").count == 1)
    }

    @Test(arguments: [401, 403])
    func authFailuresThrowUnauthorizedOrForbidden(_ status: Int) async throws {
        let backend = PushFixture.backend()
        backend.inject(.status(status), times: 3)
        for call in [InMemoryBackend.Call.push, .pull, .ping] {
            let error = try await #require(throws: OfflineStoreError.self) {
                switch call {
                case .push: _ = try await backend.push([create], collection: "todos")
                case .pull: _ = try await backend.pull(PullRequest(collection: "todos"))
                case .ping: try await backend.ping()
                }
            }
            #expect(error.code == (status == 401 ? .unauthorized : .forbidden))
            #expect(error.status == status)
        }
        #expect(backend.pendingFaultCount == 0)
    }

    @Test func aClientErrorRejectsEveryOperationOfThePushWithItsBody() async throws {
        let backend = PushFixture.backend()
        let body = #"{"errors":{"title":["can't be blank"]}}"#
        backend.inject(.status(422, body: body))
        let outcomes = try await backend.push([create, PushFixture.create("b", [:])], collection: "todos")
        #expect(outcomes == [.rejected(status: 422, body: body), .rejected(status: 422, body: body)])
        #expect(backend.allRecords(collection: "todos").isEmpty)
        backend.inject(.status(400, body: body).only(.pull))
        let error = try await #require(throws: OfflineStoreError.self) {
            try await backend.pull(PullRequest(collection: "todos"))
        }
        #expect(error.code == .server)
        #expect(error.body == body)
    }

    @Test func offlineThrowsOnEveryKindOfCall() async throws {
        let backend = PushFixture.backend()
        backend.inject(.offline, times: 3)
        await #expect { try await backend.push([create], collection: "todos") } throws: {
            ($0 as? OfflineStoreError)?.code == .offline
        }
        await #expect { try await backend.pull(PullRequest(collection: "todos")) } throws: {
            ($0 as? OfflineStoreError)?.code == .offline
        }
        await #expect { try await backend.ping() } throws: { ($0 as? OfflineStoreError)?.code == .offline }
        try await backend.ping()
        #expect(backend.writeCount == 0)
    }

    @Test func aTimeoutAppliesNothing() async throws {
        let backend = PushFixture.backend()
        backend.inject(.timeout)
        await #expect { try await backend.push([create], collection: "todos") } throws: {
            ($0 as? OfflineStoreError)?.code == .timeout
        }
        #expect(backend.serverRecord(collection: "todos", id: "a") == nil)
    }

    @Test func aLostResponseIsReallyApplied() async throws {
        let backend = PushFixture.backend()
        backend.inject(.appliedButResponseLost)
        await #expect { try await backend.push([create], collection: "todos") } throws: {
            ($0 as? OfflineStoreError)?.code == .timeout
        }
        #expect(backend.serverRecord(collection: "todos", id: "a")?.version == String(v0))
        #expect(backend.writeCount == 1)
        let retried = try await backend.push([create], collection: "todos")
        #expect(retried == [.conflict(server: ["id": "a", "title": "one"], version: String(v0))])
    }

    @Test func aDelayWaitsOnTheInjectedClockWithoutRealWaiting() async throws {
        let clock = ManualClock()
        let backend = PushFixture.backend(clock: clock)
        backend.inject(.delay(.seconds(3600)).only(.push))
        let push = Task { [create] in try await backend.push([create], collection: "todos") }
        await clock.waitForSleepers()
        #expect(backend.serverRecord(collection: "todos", id: "a") == nil)
        clock.advance(by: .seconds(3599))
        // Still asleep on the manual clock: only the injected time moves it.
        #expect(clock.sleeperCount == 1)
        #expect(backend.serverRecord(collection: "todos", id: "a") == nil)
        clock.advance(by: .seconds(1))
        #expect(try await push.value.count == 1)
        #expect(backend.serverRecord(collection: "todos", id: "a") != nil)
    }

    @Test func aRejectedOperationFailsAloneAndOnlyInAPushThatCarriesIt() async throws {
        let backend = PushFixture.backend()
        backend.inject(.rejectOperation(id: "b", status: 422, body: #"{"errors":{"n":["too big"]}}"#))
        #expect(try await backend.push([create], collection: "todos").count == 1)
        #expect(backend.pendingFaultCount == 1)
        let outcomes = try await backend.push(
            [PushFixture.create("b", ["n": 9]), PushFixture.create("c", [:])], collection: "todos")
        #expect(outcomes[0] == .rejected(status: 422, body: #"{"errors":{"n":["too big"]}}"#))
        #expect(outcomes[1] == .applied(record: ["id": "c"], version: String(v0 + 1)))
        #expect(Set(backend.allRecords(collection: "todos").keys) == ["a", "c"])
    }

    @Test func conflictOnceMakesAnUpToDateUpdateConflict() async throws {
        let backend = PushFixture.backend()
        let version = backend.put(collection: "todos", id: "a", record: ["n": 1])
        backend.inject(.conflictOnce(id: "a"))
        let outcomes = try await backend.push([PushFixture.update("a", ["n": 2], base: version)], collection: "todos")
        #expect(outcomes == [.conflict(server: ["id": "a", "n": 1], version: String(v0 + 1))])
        let retried = try await backend.push([PushFixture.update("a", ["n": 2], base: String(v0 + 1))], collection: "todos")
        #expect(retried == [.applied(record: ["id": "a", "n": 2], version: String(v0 + 2))])
    }

    @Test func faultsArePlayedInOrderOnlyByTheCallsTheyTarget() async throws {
        let backend = PushFixture.backend()
        backend.inject(.offline.only(.pull))
        backend.inject(.status(500), times: 2)
        #expect(backend.pendingFaultCount == 3)
        await #expect { try await backend.push([create], collection: "todos") } throws: {
            ($0 as? OfflineStoreError)?.status == 500
        }
        await #expect { try await backend.pull(PullRequest(collection: "todos")) } throws: {
            ($0 as? OfflineStoreError)?.code == .offline
        }
        await #expect { try await backend.ping() } throws: { ($0 as? OfflineStoreError)?.status == 500 }
        #expect(backend.pendingFaultCount == 0)
        backend.inject(.timeout, times: 5)
        backend.clearFaults()
        try await backend.ping()
        #expect(backend.requestLog.count == 4)
    }
}
