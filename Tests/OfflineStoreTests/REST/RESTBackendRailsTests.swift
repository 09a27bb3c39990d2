import Foundation
import Testing
@testable import OfflineStore

/// The REST backend against the real Rails 6.1 app: server-assigned ids, nested routes,
/// validation errors, conflicts, soft deletes, decimals, lost answers.
@Suite("REST backend on Rails")
struct RESTBackendRailsTests {
    let collections = [CollectionDescriptor("customers"), CollectionDescriptor("orders"), CollectionDescriptor("products")]
    let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }

    @Test(.liveServer) func offlineCustomerAndOrdersGetServerIDsEverywhere() async throws {
        let wire = RailsServer.wire()
        try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend(transport: wire),
                                     collections: collections) { store in
            let customer = try await store.collection("customers").create(["name": "Ada"])
            let temporary = try #require(customer["id"]?.stringValue)
            let first = try await store.collection("orders").create(["customerId": .string(temporary), "quantity": 1])
            let second = try await store.collection("orders").create(["customerId": .string(temporary), "quantity": 2])

            let report = try await store.flush()

            #expect(report.pushed == 3)
            #expect(report.pending == 0 && report.heldBack == 0)
            let realID = try store.serverID(for: temporary, in: "customers")
            #expect(realID != temporary && Int(realID) != nil)
            #expect(try store.collection("customers").find(temporary) == nil)
            #expect(try store.collection("customers").find(realID)?["name"] == "Ada")
            var orderIDs: [String] = []
            for order in [first, second] {
                let id = try store.serverID(for: try #require(order["id"]?.stringValue), in: "orders")
                let local = try #require(try store.collection("orders").object(id))
                #expect(local.state == .synced)
                #expect(local.persistent?["customerId"] == .string(realID))
                orderIDs.append(id)
            }
            // The orders went to the nested route of the real customer, never with the temporary id.
            let posts = wire.requestLines.filter { $0.hasPrefix("POST") }
            #expect(posts == ["POST /customers.json", "POST /customers/\(realID)/orders.json",
                              "POST /customers/\(realID)/orders.json"])
            #expect(!wire.requestLines.contains { $0.contains(temporary) })
            let onServer = try await RailsServer.request("GET", "/customers/\(realID)/orders.json")
            let serverOrders = try #require(onServer.json?.arrayValue)
            #expect(Set(serverOrders.compactMap { $0["id"]?.intValue.map(String.init) }) == Set(orderIDs))
            #expect(serverOrders.allSatisfy { $0["customer_id"]?.intValue == Int64(realID) })
        }
    }

    @Test(.liveServer) func validationErrorIsKeptPerFieldAndHoldsBackDependentsUntilFixed() async throws {
        let wire = RailsServer.wire()
        try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend(transport: wire),
                                     collections: collections) { store in
            let customer = try await store.collection("customers").create(["name": "", "email": "nope"])
            let temporary = try #require(customer["id"]?.stringValue)
            let order = try await store.collection("orders").create(["customerId": .string(temporary), "quantity": 3])
            let orderID = try #require(order["id"]?.stringValue)

            let report = try await store.flush()

            #expect(report.pushed == 0 && report.failed == 1 && report.heldBack == 1)
            let failed = try store.onlyEntry("customers", temporary)
            #expect(failed.state == .failed && failed.status == 422)
            let messages = try JSONValue(parsing: try #require(failed.responseBody))
            #expect(messages["name"] == ["can't be blank"])
            #expect(messages["email"] == ["is not an email address"])
            let held = try store.onlyEntry("orders", orderID)
            #expect(held.state == .pending && held.attempts == 0)
            #expect(held.lastError?.contains("whose create failed") == true)
            #expect(wire.requestLines.filter { $0.contains("orders") }.isEmpty)

            try await store.collection("customers").patch(temporary, ["name": "Grace", "email": "grace@example.org"])
            try store.retry("customers", id: temporary)
            let fixed = try await store.flush()

            #expect(fixed.pushed == 3)  // the create, the fixing update (the create was sent once), the order
            #expect(fixed.failed == 0)
            #expect(fixed.heldBack == 0)
            #expect(fixed.pending == 0)
            let realID = try store.serverID(for: temporary, in: "customers")
            let realOrder = try store.serverID(for: orderID, in: "orders")
            let onServer = try await RailsServer.request("GET", "/orders/\(realOrder).json")
            #expect(onServer.json?["customer_id"]?.intValue == Int64(realID))
        }
    }

    @Test(.liveServer) func staleLockVersionIs409WithBothCopies() async throws {
        try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend(),
                                     collections: collections) { store in
            let created = try await store.collection("customers").create(["name": "Old"])
            try await store.flush()
            let id = try store.serverID(for: try #require(created["id"]?.stringValue), in: "customers")
            let other = try await RailsServer.request("PATCH", "/customers/\(id).json", ["customer": ["name": "Theirs"]])
            #expect(other.status == 200)

            try await store.collection("customers").patch(id, ["name": "Mine"])
            let report = try await store.flush()

            #expect(report.conflictsDetected == 1 && report.conflicts == 1)
            let conflict = try #require(try store.conflicts(in: "customers").first { $0.id == id })
            #expect(conflict.local?["name"] == "Mine")
            #expect(conflict.server?["name"] == "Theirs")
            #expect(conflict.base?["name"] == "Old")
            #expect(conflict.serverVersion == "1")

            try store.resolve("customers", id: id, with: .keepLocal)
            try await store.flush()
            let after = try await RailsServer.request("GET", "/customers/\(id).json")
            #expect(after.json?["name"] == "Mine")
            #expect(after.json?["lock_version"] == 2)
        }
    }

    @Test(.liveServer) func ifMatchMismatchIs412WithBothCopies() async throws {
        try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend(),
                                     collections: collections) { store in
            let name = RailsServer.uniqueName("pen")
            let created = try await store.collection("products").create(["name": .string(name), "price": 1.25])
            try await store.flush()
            let id = try store.serverID(for: try #require(created["id"]?.stringValue), in: "products")
            let other = try await RailsServer.request("PATCH", "/products/\(id).json", ["product": ["price": "2.50"]])
            #expect(other.status == 200)

            try await store.collection("products").patch(id, ["price": 9.75])
            let report = try await store.flush()

            #expect(report.conflicts == 1)
            let conflict = try #require(try store.conflicts(in: "products").first { $0.id == id })
            #expect(conflict.local?["price"] == 9.75)
            #expect(conflict.server?["price"] == 2.5)
            #expect(conflict.base?["price"] == 1.25)
            let unchanged = try await RailsServer.request("GET", "/products/\(id).json")
            #expect(unchanged.json?["price"] == "2.5")
        }
    }

    @Test(.liveServer) func softDeletesArePulledAsTombstonesAndDecimalsDecoded() async throws {
        try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend(),
                                     collections: collections) { store in
            var ids: [String] = []
            for price in ["12.50", "0.99", "7"] {
                let made = try await RailsServer.request("POST", "/products.json",
                                                         ["product": ["name": .string(RailsServer.uniqueName("p")), "price": .string(price)]])
                #expect(made.status == 201)
                ids.append(String(try #require(made.json?["id"]?.intValue)))
            }
            try await store.refresh(collections: ["products"])
            let products = store.collection("products")
            #expect(try products.find(ids[0])?["price"] == 12.5)
            #expect(try products.find(ids[1])?["price"] == 0.99)
            #expect(try products.find(ids[2])?["price"] == 7.0)
            #expect(try products.find(ids[0])?["lock_version"] == nil)

            let deleted = try await RailsServer.request("DELETE", "/products/\(ids[1]).json")
            #expect(deleted.status == 204)
            let report = try await store.refresh(collections: ["products"])

            #expect(report.pulled >= 1)
            #expect(try products.find(ids[1]) == nil)
            #expect(try products.find(ids[0]) != nil)
        }
    }

    @Test(.liveServer) func lostAnswerToACreateDoesNotDuplicate() async throws {
        let wire = RailsServer.wire()
        try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend(transport: wire),
                                     collections: collections) { store in
            let name = RailsServer.uniqueName("lost")
            let created = try await store.collection("customers").create(["name": .string(name)])
            let temporary = try #require(created["id"]?.stringValue)
            wire.inject(.lostResponse)

            await expectStoreError(.timeout) { try await store.flush() }
            #expect(try store.onlyEntry("customers", temporary).attempts == 1)
            let report = try await store.flush()

            #expect(report.pushed == 1)
            #expect(wire.writeCount == 2)
            let realID = try store.serverID(for: temporary, in: "customers")
            let all = try await RailsServer.request("GET", "/customers.json?per_page=\(RailsServer.maxPerPage)")
            let named = try #require(all.json?.arrayValue).filter { $0["name"] == .string(name) }
            #expect(named.count == 1)
            #expect(named.first?["id"]?.intValue.map(String.init) == realID)
        }
    }

    @Test(.liveServer) func resentCreateLooksForItsRecordBeforePostingAgain() async throws {
        let wire = RailsServer.wire()
        var resources = RailsServer.resources
        resources["customers"]?.createLookupParameter = "idempotency_key"
        let backend = RESTBackend(configuration: .init(baseURL: try RailsServer.url(), resources: resources), transport: wire)
        try await withTemporaryStore(configuration: deferred, backend: backend, collections: collections) { store in
            let created = try await store.collection("customers").create(["name": .string(RailsServer.uniqueName("look"))])
            let temporary = try #require(created["id"]?.stringValue)
            let key = try store.onlyEntry("customers", temporary).idempotencyKey
            wire.inject(.lostResponse)

            await expectStoreError(.timeout) { try await store.flush() }
            let report = try await store.flush()

            #expect(report.pushed == 1)
            #expect(wire.writeCount == 1)  // found by its key: no second POST
            #expect(wire.requestLines.contains("GET /customers.json?idempotency_key=\(key)"))
            #expect(try store.serverID(for: temporary, in: "customers") != temporary)
        }
    }
}
