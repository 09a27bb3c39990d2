import Foundation
import OfflineStore
import Testing

/// The `offline-store` tool on the REST backend against the real Rails app: `init --backend
/// rest --resources FILE`, offline creates with temporary ids, a sync that re-keys them to
/// the server's ids (references too), a conflict with another client, and its resolution.
@Suite("CLI on the REST backend")
struct CLIRESTTests {
    static let resources = RESTResourceFileTests.railsFile.path

    static func initialise(_ store: CLIStore, deferred: Bool = true) async throws {
        var arguments = ["init", "--server", try RailsServer.url().absoluteString, "--backend", "rest",
                         "--resources", resources]
        if deferred { arguments.append("--deferred") }
        let result = try await store.workspace.run(arguments + ["--store", store.path])
        try #require(result.status == 0, "\(result)")
        #expect(try result.json()["backend"] == "rest")
        #expect(try result.json()["resources"]?["resources"]?["orders"]?["wrapKey"] == "order")
    }

    @Test(.liveServer) func theDemoWalkThroughWorksOnRails() async throws {
        try await CLIWorkspace.with { workspace in
            let store = workspace.store("shop")
            try await Self.initialise(store)
            try await store.expect(0, "collection", "add", "customers")
            try await store.expect(0, "collection", "add", "orders")
            try await store.expect(1, "collection", "add", "widgets")          // no such resource

            // Offline: temporary ids, the order refers to the temporary customer.
            let name = RailsServer.uniqueName("cli")
            let customer = try await store.expect(0, "create", "customers", #"{"name":"\#(name)"}"#).json()
            let temporary = try #require(customer["id"]?.stringValue)
            let order = try await store.expect(0, "create", "orders", #"{"customerId":"\#(temporary)","quantity":2}"#).json()
            #expect(try await store.queue().count == 2)

            // Sync: the server assigns ids; the customer and the order's reference are re-keyed.
            let synced = try await store.expect(0, "sync").json()
            #expect(synced["pushed"] == 2 && synced["pending"] == 0)
            try await store.expect(3, "get", "customers", temporary)
            let customers = try await store.expect(0, "list", "customers", "--where", "name=\(name)").json().arrayValue ?? []
            try #require(customers.count == 1, "\(customers)")
            let id = try #require(customers[0]["id"]?.stringValue)
            #expect(Int(id) != nil, "a Rails id, not \(id)")
            let orders = try await store.expect(0, "list", "orders", "--where", #"customerId="\#(id)""#).json().arrayValue ?? []
            #expect(orders.count == 1 && orders.first?["quantity"] == 2, "\(orders) (was \(order))")
            #expect(try await RailsServer.request("GET", "/customers/\(id).json").json?["name"] == .string(name))

            // Another client renames the customer while this store edits it: a conflict (exit 4).
            #expect(try await RailsServer.request("PATCH", "/customers/\(id).json", ["customer": ["name": .string("\(name) (theirs)")]]).status == 200)
            try await store.expect(0, "update", "customers", id, #"{"email":"ada@example.com"}"#, "--merge")
            let conflicted = try await store.expect(4, "sync").json()
            #expect(conflicted["conflicts"] == 1)
            let conflicts = try await store.expect(0, "conflicts", "customers").json().arrayValue ?? []
            #expect(conflicts.first?["server"]?["name"] == .string("\(name) (theirs)"))
            #expect(conflicts.first?["local"]?["email"] == "ada@example.com")

            // Resolved with both changes; the next sync sends it.
            try await store.expect(0, "resolve", "customers", id, "--with",
                                   #"{"name":"\#(name) (theirs)","email":"ada@example.com"}"#)
            #expect(try await store.expect(0, "sync").json()["pushed"] == 1)
            let onServer = try await RailsServer.request("GET", "/customers/\(id).json").json
            #expect(onServer?["name"] == .string("\(name) (theirs)") && onServer?["email"] == "ada@example.com")
            #expect(try await store.expect(0, "status").json()["conflicts"] == 0)
        }
    }

    @Test(.liveServer) func aBadResourcesFileIsAUsageErrorAndWritesNothing() async throws {
        try await CLIWorkspace.with { workspace in
            let bad = workspace.directory.path("bad.json")
            try Data(#"{"resources":{"orders":{"path":"/orders","wrapkey":"order"}}}"#.utf8).write(to: URL(fileURLWithPath: bad))
            let store = workspace.store("shop")
            let url = try RailsServer.url().absoluteString
            let result = try await workspace.run(["init", "--server", url, "--backend", "rest", "--resources", bad, "--store", store.path])
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("resources.orders.wrapkey"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: store.path))
            let missing = try await workspace.run(["init", "--server", url, "--backend", "rest", "--store", store.path])
            #expect(missing.status == 64 && missing.stderr.contains("--resources"), "\(missing)")
            let notJSON = workspace.directory.path("x.json")
            try Data("{".utf8).write(to: URL(fileURLWithPath: notJSON))
            #expect(try await workspace.run(["init", "--server", url, "--backend", "rest", "--resources", notJSON,
                                             "--store", store.path]).status == 64)
        }
    }
}
