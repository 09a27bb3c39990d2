import Foundation
import Testing
@testable import OfflineStore

/// Routes, bodies and answers of the REST backend without a server (scripted answers).
@Suite("REST resource mapping")
struct RESTResourceMappingTests {
    func backend(_ answers: [HTTPResponse], resources: [String: RESTResource] = RailsServer.resources)
        -> (RESTBackend, ScriptedTransport) {
        let transport = ScriptedTransport(answers)
        let backend = RESTBackend(configuration: .init(baseURL: URL(string: "http://127.0.0.1:9/api/")!, resources: resources),
                                  transport: transport)
        return (backend, transport)
    }

    @Test func keysAreMappedBothWaysWithRenamesAndServerOwnedFieldsLeftOut() throws {
        var resource = RESTResource(path: "/people", wrapKey: "person")
        resource.renames = ["nickName": "alias"]
        let mapping = RESTBodyMapping(resource: resource)
        let fields = try mapping.remoteFields(["id": "tmp", "firstName": "Ada", "nickName": "A", "createdAt": "x",
                                               "lockVersion": 3], includeID: false)
        #expect(fields == ["first_name": "Ada", "alias": "A"])
        #expect(mapping.body(fields) == ["person": ["first_name": "Ada", "alias": "A"]])
        let local = try mapping.localRecord(["id": 7, "first_name": "Ada", "alias": "A", "lock_version": 2,
                                             "deleted_at": .null, "created_at": "t"], what: "test")
        #expect(local.id == "7")
        #expect(local.object == ["id": "7", "firstName": "Ada", "nickName": "A", "createdAt": "t"])
        #expect(mapping.version(of: ["lock_version": 2]) == "2")
    }

    @Test func decimalStringsAreDecodedAndBadOnesAreTypedErrors() throws {
        let mapping = RESTBodyMapping(resource: RailsServer.resources["products"]!)
        #expect(try mapping.localRecord(["id": 1, "price": "12.50"], what: "t").object["price"] == 12.5)
        #expect(try mapping.remoteFields(["price": 3.25], includeID: false)["price"] == "3.25")
        #expect { try mapping.localRecord(["id": 1, "price": "twelve"], what: "t") } throws: { error in
            (error as? OfflineStoreError)?.code == .badResponse && "\(error)".contains("price")
        }
    }

    @Test func routesFillNestedTemplatesAndRefuseMissingFields() throws {
        let routes = RESTRoutes(resource: RailsServer.resources["orders"]!)
        #expect(try routes.collectionPath(for: .create, fields: ["customer_id": "42"]) == "/customers/42/orders.json")
        #expect(try routes.memberPath(for: .update, id: "9", fields: ["customer_id": "42"]) == "/orders/9.json")
        #expect(try routes.flatMemberPath(id: "a/b c") == "/orders/a%2Fb%20c.json")
        #expect { try routes.collectionPath(for: .create, fields: [:]) } throws: { error in
            (error as? OfflineStoreError)?.code == .invalidOperation && "\(error)".contains("customer_id")
        }
    }

    @Test func updatesCarryTheVersionAsConfigured() async throws {
        let (backend, transport) = backend([
            ScriptedTransport.json(200, ["id": 5, "name": "B", "lock_version": 4]),
            ScriptedTransport.json(200, ["id": 6, "name": "P", "price": "1.0", "lock_version": 8], headers: ["ETag": "\"8\""]),
            HTTPResponse(status: 204),
        ])
        let customer = PushOperation(id: "5", kind: .update, data: ["id": "5", "name": "B"], baseVersion: "3", idempotencyKey: "k1")
        let product = PushOperation(id: "6", kind: .update, data: ["id": "6", "name": "P", "price": 1.0], baseVersion: "7", idempotencyKey: "k2")
        let gone = PushOperation(id: "5", kind: .delete, data: nil, baseVersion: "4", idempotencyKey: "k3")

        #expect(try await backend.push([customer], collection: "customers") == [.applied(record: ["id": "5", "name": "B"], version: "4")])
        #expect(try await backend.push([product], collection: "products") == [.applied(record: ["id": "6", "name": "P", "price": 1.0], version: "8")])
        #expect(try await backend.push([gone], collection: "customers") == [.applied(record: nil, version: nil)])

        let sent = transport.sent
        #expect(sent[0].method == "PATCH" && sent[0].url.absoluteString == "http://127.0.0.1:9/api/customers/5.json")
        #expect(try JSONValue(parsing: try #require(sent[0].body)) == ["customer": ["name": "B", "lock_version": 3]])
        #expect(sent[1].method == "PUT" && sent[1].header("If-Match") == "\"7\"")
        #expect(try JSONValue(parsing: try #require(sent[1].body)) == ["product": ["name": "P", "price": "1.0"]])
        #expect(sent[2].method == "DELETE" && sent[2].url.query == "lock_version=4")
    }

    @Test func createsSendTheIdempotencyKeyAndNoID() async throws {
        let (backend, transport) = backend([ScriptedTransport.json(201, ["id": 77, "name": "N", "lock_version": 0])])
        let create = PushOperation(id: "tmp-1", kind: .create, data: ["id": "tmp-1", "name": "N"], baseVersion: nil, idempotencyKey: "key-1")
        #expect(try await backend.push([create], collection: "customers") == [.applied(record: ["id": "77", "name": "N"], version: "0")])
        #expect(transport.sent[0].header("Idempotency-Key") == "key-1")
        #expect(try JSONValue(parsing: try #require(transport.sent[0].body)) == ["customer": ["name": "N"]])
    }

    @Test func malformedAnswersAreBadResponsesAnd422KeepsTheBody() async throws {
        let (backend, _) = backend([
            HTTPResponse(status: 201, headers: ["content-type": "application/json"], body: Data("{\"id\": 1,".utf8)),
            ScriptedTransport.json(422, ["name": ["can't be blank"]]),
            HTTPResponse(status: 200, body: Data("[1,".utf8)),
        ])
        let create = PushOperation(id: "t", kind: .create, data: ["id": "t", "name": ""], baseVersion: nil, idempotencyKey: "k")
        await #expect { try await backend.push([create], collection: "customers") } throws: { error in
            (error as? OfflineStoreError)?.code == .badResponse
        }
        let rejected = try await backend.push([create], collection: "customers")
        #expect(rejected == [.rejected(status: 422, body: #"{"name":["can't be blank"]}"#)])
        await #expect { try await backend.pull(PullRequest(collection: "customers")) } throws: { error in
            (error as? OfflineStoreError)?.code == .badResponse
        }
    }

    @Test func conflictWithoutARecordReadsTheServerCopy() async throws {
        let (backend, transport) = backend([
            ScriptedTransport.json(409, ["error": "stale object"]),
            ScriptedTransport.json(200, ["id": 5, "name": "Theirs", "lock_version": 2]),
        ])
        let update = PushOperation(id: "5", kind: .update, data: ["id": "5", "name": "Mine"], baseVersion: "1", idempotencyKey: "k")
        #expect(try await backend.push([update], collection: "customers") == [.conflict(server: ["id": "5", "name": "Theirs"], version: "2")])
        #expect(transport.sent.map(\.method) == ["PATCH", "GET"])
    }

    @Test func pullMakesTombstonesAndFollowsPages() async throws {
        var resource = RESTResource(path: "/customers")
        resource.pull.paging = .pageNumber(size: 2)
        let (backend, transport) = backend([
            ScriptedTransport.json(200, [
                ["id": 1, "name": "A", "lock_version": 0, "deleted_at": .null, "updated_at": "2024-01-01T00:00:00.000001Z"],
                ["id": 2, "name": "B", "lock_version": 3, "deleted_at": "2024-01-01T00:00:01Z", "updated_at": "2024-01-01T00:00:01.000002Z"],
            ]),
            ScriptedTransport.json(200, []),
        ], resources: ["customers": resource])
        let first = try await backend.pull(PullRequest(collection: "customers", cursor: "2023-12-31T00:00:00.5+01:00"))
        #expect(first.changes == [RemoteChange(id: "1", record: ["id": "1", "name": "A", "updatedAt": "2024-01-01T00:00:00.000001Z"], version: "0"),
                                  RemoteChange(id: "2", record: nil, version: "3")])
        #expect(first.cursor == nil, "page numbers store the cursor only with the last page")
        #expect(first.next != nil)
        let second = try await backend.pull(PullRequest(collection: "customers", continuation: first.next))
        #expect(second.changes.isEmpty && second.next == nil)
        #expect(second.cursor == "2024-01-01T00:00:01.000002Z", "the highest mark of the whole pull")
        #expect(transport.sent[0].url.query == "updated_since=2023-12-31T00:00:00.5%2B01:00&page=1&per_page=2")
        #expect(transport.sent[1].url.query?.contains("page=2") == true)
    }

    @Test func cursorPagesStartBelowTheHighestMarkSoTiesAreReadAgain() async throws {
        var resource = RESTResource(path: "/customers")
        resource.pull.paging = .cursor(size: 3)
        func row(_ id: Int, _ mark: String) -> JSONValue {
            ["id": .int(Int64(id)), "lock_version": 0, "deleted_at": .null, "updated_at": .string(mark)]
        }
        let (backend, transport) = backend([
            ScriptedTransport.json(200, [row(1, "t1"), row(2, "t2"), row(3, "t2")]),
            ScriptedTransport.json(200, [row(2, "t2"), row(3, "t2"), row(4, "t2")]),
            ScriptedTransport.json(200, [row(5, "t3")]),
        ], resources: ["customers": resource])
        let first = try await backend.pull(PullRequest(collection: "customers"))
        #expect(first.cursor == "t1", "stored only as far as every record is surely read")
        let second = try await backend.pull(PullRequest(collection: "customers", continuation: first.next))
        #expect(second.cursor == "t2", "a page of one mark moves past it")
        let third = try await backend.pull(PullRequest(collection: "customers", continuation: second.next))
        #expect(third.next == nil && third.cursor == "t3" && third.changes.map(\.id) == ["5"])
        #expect(transport.sent.map { $0.url.query ?? "" } == ["per_page=3", "updated_since=t1&per_page=3", "updated_since=t2&per_page=3"])
        #expect(RESTBackend.resumeMark([]) == nil && RESTBackend.resumeMark(["b", "a", "b"]) == "a")
    }
}
