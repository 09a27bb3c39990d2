import Foundation
import Testing
@testable import OfflineStore

/// Sync scopes on the REST backend against the real Rails app: the orders feed filtered by
/// a declared parameter (`scopeParameters`), departures, a pending edit, a changed scope.
@Suite("REST sync scopes on Rails", .timeLimit(.minutes(5)))
struct RESTScopeRailsTests {
    let deferred = ObjectStore.Configuration.with { $0.writeMode = .deferred }

    /// Another client's order of a new customer, with `note`; returns its id.
    static func order(note: String, quantity: Int, customer: Int) async throws -> String {
        let made = try await RailsServer.request("POST", "/customers/\(customer)/orders.json",
                                                 ["order": ["quantity": .int(Int64(quantity)), "note": .string(note)]])
        return try #require(made.json?["id"]?.intValue.map(String.init), "order not created: \(made.status)")
    }

    static func customer() async throws -> Int {
        let made = try await RailsServer.request("POST", "/customers.json", ["customer": ["name": "Scope"]])
        return Int(try #require(made.json?["id"]?.intValue))
    }

    static func scoped(_ note: String, policy: ConflictPolicy = .preserveConflict) -> CollectionDescriptor {
        var orders = CollectionDescriptor("orders", conflictPolicy: policy)
        orders.syncScope = ServerQuery([.equal("note", .string(note))])
        return orders
    }

    static func ids(_ store: ObjectStore) throws -> Set<String> {
        Set(try store.collection("orders").findAll().compactMap { $0["id"]?.stringValue })
    }

    @Test(.liveServer) func theFeedIsFilteredOnTheServerAndDeparturesGoWithTheirReason() async throws {
        let here = RailsServer.uniqueName("here"), there = RailsServer.uniqueName("there")
        let customer = try await Self.customer()
        let a = try await Self.order(note: here, quantity: 1, customer: customer)
        let b = try await Self.order(note: here, quantity: 2, customer: customer)
        _ = try await Self.order(note: there, quantity: 3, customer: customer)
        let wire = RailsServer.wire()
        try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend(transport: wire),
                                     collections: [CollectionDescriptor("customers"), Self.scoped(here, policy: .clientWins)]) { store in
            let first = try await store.refresh(collections: ["orders"])
            #expect(try Self.ids(store) == [a, b])
            #expect(first.pulled == 2)
            #expect(wire.requestLines.contains { $0.hasPrefix("GET /orders.json?note=\(here)") }, "\(wire.requestLines)")

            // Another client moves b out of the scope; a stays.
            _ = try await RailsServer.request("PATCH", "/orders/\(b).json", ["order": ["note": .string(there)]])
            let changes = store.changes(in: "orders")
            let second = try await store.refresh(collections: ["orders"])
            #expect(second.leftScope == 1)
            #expect(try Self.ids(store) == [a])
            for await change in changes where change.id == b {
                #expect(change.kind == .deleted && change.reason == .leftScope)
                break
            }

            // A pending edit keeps its object when the record leaves, and is pushed.
            try await store.collection("orders").patch(a, ["quantity": 5])
            _ = try await RailsServer.request("PATCH", "/orders/\(a).json", ["order": ["note": .string(there)]])
            #expect(try await store.refresh(collections: ["orders"]).leftScope == 0)
            #expect(try store.collection("orders").find(a)?["quantity"] == 5)
            try await store.flush()
            #expect(try await RailsServer.request("GET", "/orders/\(a).json").json?["quantity"] == 5, "the edit reached Rails")
        }
    }

    @Test(.liveServer) func aChangedScopePullsTheRecordsItAddsAndDropsTheOthers() async throws {
        let old = RailsServer.uniqueName("old"), new = RailsServer.uniqueName("new")
        let customer = try await Self.customer()
        let a = try await Self.order(note: old, quantity: 1, customer: customer)
        let b = try await Self.order(note: new, quantity: 2, customer: customer)
        try await withTemporaryStore(configuration: deferred, backend: try RailsServer.backend(),
                                     collections: [CollectionDescriptor("customers"), Self.scoped(old)]) { store in
            try await store.refresh(collections: ["orders"])
            #expect(try Self.ids(store) == [a])
            try store.register(Self.scoped(new))
            #expect(try Self.ids(store).isEmpty, "a left with the old scope")
            let report = try await store.refresh(collections: ["orders"])
            #expect(try Self.ids(store) == [b])
            #expect(report.pulled == 1)
        }
    }
}
