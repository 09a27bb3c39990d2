import Foundation
import Testing
@testable import OfflineStore

/// Paging, deletions and errors against the real DRF app, as a new user meets them: DRF's
/// defaults (page numbers of 50 in a `{count, next, previous, results}` envelope, hard deletes,
/// a 301 for a route without its trailing slash, Django's HTML 500 page) and the recipe's
/// limit/offset envelope.
@Suite("REST paging and errors on DRF", .timeLimit(.minutes(5)))
struct DRFPagingTests {
    /// The plain route of a new space, paged as `paging` says.
    static func plain(_ space: String, _ paging: RESTResource.Paging, countField: String? = "count") throws -> RESTBackend {
        var resources = try DRFServer.resources(.plain, space: space)
        resources["tasks"]?.pull.paging = paging
        resources["tasks"]?.pull.countField = countField
        if case .cursor = paging { resources["tasks"]?.pull.cursorParameter = "updated_since" }
        return try DRFServer.backend(resources)
    }

    /// Every change of a pull from the beginning.
    static func pullAll(_ backend: RESTBackend) async throws -> [RemoteChange] {
        try await RESTPagingTests.pullAll(backend).flatMap(\.changes)
    }

    @Test(.liveServer) func anExactMultipleOfThePageSizeEndsAtThe404PastTheEnd() async throws {
        let space = DRFServer.newSpace()
        try await DRFServer.seed(.plain, space: space, count: 50)
        let changes = try await Self.pullAll(try Self.plain(space, .pageNumber(size: 50)))
        #expect(changes.count == 50)
        #expect(Set(changes.map(\.id)).count == 50)
    }

    @Test(.liveServer) func theEnvelopesNextLinkReadsEveryRecord() async throws {
        let space = DRFServer.newSpace()
        try await DRFServer.seed(.plain, space: space, count: 51)
        let backend = try Self.plain(space, .bodyLink(nextField: "next"))
        let pages = try await RESTPagingTests.pullAll(backend)
        #expect(pages.count == 2 && pages.flatMap(\.changes).count == 51 && pages.first?.total == 51)
        #expect(pages.allSatisfy { $0.cursor == nil }, "DRF's defaults filter by no cursor: none is stored")
    }

    @Test(.liveServer) func limitOffsetReadsEveryRecordOfTheRecipe() async throws {
        let space = DRFServer.newSpace()
        try await DRFServer.seed(.recipe, space: space, count: 45)
        var tasks = DRFServer.recipeResource(space: space)
        tasks.pull.paging = .limitOffset(size: 20)
        let pages = try await RESTPagingTests.pullAll(try DRFServer.backend(["tasks": tasks]))
        #expect(pages.count == 3 && Set(pages.flatMap(\.changes).map(\.id)).count == 45)
    }

    @Test(.liveServer) func linkHeadersOnAServerThatSendsNoneAreCaughtByTheCount() async throws {
        let space = DRFServer.newSpace()
        try await DRFServer.seed(.plain, space: space, count: 51)
        await #expect { try await Self.pullAll(try Self.plain(space, .linkHeader(size: 50))) } throws: { error in
            let message = (error as? OfflineStoreError)?.message ?? ""
            return message.contains("ended after 50 records but the server announced 51")
        }
    }

    @Test(.liveServer, arguments: [
        (RESTResource.Paging.cursor(sizeParameter: "page_size", size: 50), "resources.tasks.pull.cursorParameter"),
        (.limitOffset(size: 50), "resources.tasks.pull.paging.offsetParameter"),
    ])
    func aParameterTheServerIgnoresStopsThePullAtTheSecondPage(_ paging: RESTResource.Paging, _ setting: String) async throws {
        let space = DRFServer.newSpace()
        try await DRFServer.seed(.plain, space: space, count: 51)
        let counting = RecordingTransport(base: URLSessionTransport(followingRedirects: false))
        var resources = try DRFServer.resources(.plain, space: space)
        resources["tasks"]?.pull.paging = paging
        resources["tasks"]?.pull.countField = nil
        if case .cursor = paging { resources["tasks"]?.pull.cursorParameter = "updated_since" }
        let backend = try DRFServer.backend(resources, transport: counting)
        await #expect { try await Self.pullAll(backend) } throws: { error in
            (error as? OfflineStoreError)?.code == .configuration && "\(error)".contains(setting)
        }
        #expect(counting.requests.count == 2, "stopped at the first repeat, not after hundreds of identical GETs")
    }

    @Test(.liveServer) func aRouteWithoutItsTrailingSlashIsAConfigurationErrorNamingTheTarget() async throws {
        let space = DRFServer.newSpace()
        var resources = try DRFServer.resources(.plain, space: space)
        resources["tasks"]?.path = "/plain/\(space)/tasks"
        let backend = try DRFServer.backend(resources)
        await #expect { try await Self.pullAll(backend) } throws: { error in
            let error = error as? OfflineStoreError
            return error?.code == .configuration && error?.status == 301
                && error?.message.contains("to \(try! DRFServer.url().absoluteString)/plain/\(space)/tasks/") == true
                && error?.message.contains("lacks its trailing slash") == true
        }
        let create = PushOperation(id: "tmp", kind: .create, data: ["id": "tmp", "title": "x"], baseVersion: nil, idempotencyKey: "k")
        await #expect { try await backend.push([create], collection: "tasks") } throws: { error in
            (error as? OfflineStoreError)?.code == .configuration && "\(error)".contains("POST")
        }
    }

    @Test(.liveServer) func djangosHTML500IsToldByTitleAndRejectedOnTheThirdSend() async throws {
        let space = DRFServer.newSpace()
        let backend = try DRFServer.backend(try DRFServer.resources(.plain, space: space))
        try await withTemporaryStore(configuration: .with { $0.writeMode = .deferred }, backend: backend,
                                     collections: [CollectionDescriptor("tasks")]) { store in
            let made = try await store.collection("tasks").create(["title": "!boom"])
            let id = try #require(made["id"]?.stringValue)
            for attempt in 1...2 {
                let error = await expectStoreError(.server) { try await store.flush() }
                #expect(error?.message.contains("HTTP 500 \"Server Error (500)\"") == true, "\(String(describing: error))")
                #expect(try store.onlyEntry("tasks", id).state == .pending && store.onlyEntry("tasks", id).attempts == attempt)
            }
            let report = try await store.flush()
            #expect(report.failed == 1, "the queue is not blocked for ever")
            let entry = try store.onlyEntry("tasks", id)
            #expect(entry.state == .failed && entry.status == 500 && entry.responseBody == "Server Error (500)")
        }
    }

    @Test(.liveServer, .timeLimit(.minutes(5))) func aSweepRemovesWhatAnotherClientDeletedAndKeepsPendingEdits() async throws {
        let space = DRFServer.newSpace()
        let backend = try DRFServer.backend(try DRFServer.resources(.plain, space: space))
        try await withTemporaryStore(configuration: .with { $0.writeMode = .deferred }, backend: backend,
                                     collections: [CollectionDescriptor("tasks")]) { store in
            try await DRFServer.seed(.plain, space: space, count: 3)
            try await store.refresh()
            let tasks = store.collection("tasks")
            #expect(try tasks.count() == 3)
            let ids = try tasks.objects().map(\.id).sorted { Int($0)! < Int($1)! }
            let (gone, edited, kept) = (ids[0], ids[1], ids[2])
            let changes = store.changes(in: "tasks")
            #expect(try await DRFServer.request("DELETE", "/plain/\(space)/tasks/\(gone)/").status == 204)
            #expect(try await DRFServer.request("DELETE", "/plain/\(space)/tasks/\(edited)/").status == 204)
            try await tasks.patch(edited, ["done": true])

            let report = try await store.refresh()  // no cursor parameter: every pull reads the whole list

            #expect(report.swept == 1)
            #expect(try tasks.find(gone) == nil)
            #expect(try tasks.find(edited)?["done"] == true, "an acknowledged edit is never dropped")
            #expect(try tasks.find(kept) != nil)
            for await change in changes where change.id == gone {
                #expect(change.kind == .deleted && change.reason == .swept && change.origin == .server)
                break
            }
        }
    }
}
