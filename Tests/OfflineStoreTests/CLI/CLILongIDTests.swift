import Foundation
import OfflineStore
import Testing

/// The case a user reported: records with 257- and 300-character ids, made by another
/// client, are pulled by `refresh` and must take `update --merge` and `delete` (they used
/// to exit 1 with "an object id must be at most 256 bytes").
@Suite("CLI long ids")
struct CLILongIDTests {
    @Test(.liveServer) func longIDsPulledFromKintoCanBeUpdatedAndDeleted() async throws {
        try await CLIWorkspace.with { workspace in
            let other = try await workspace.store("other").initialise(deferred: false)
            let app = try await workspace.store("app").initialise()
            let kept = "k" + String(repeating: "7", count: 299), gone = "g" + String(repeating: "_", count: 256)
            try await other.expect(0, "create", "todos", #"{"title":"keep"}"#, "--id", kept)
            try await other.expect(0, "create", "todos", #"{"title":"drop"}"#, "--id", gone)

            #expect(try await app.expect(0, "refresh").json()["pulled"] == 2)
            try await app.expect(0, "update", "todos", kept, #"{"done":true}"#, "--merge")
            try await app.expect(0, "delete", "todos", gone)
            #expect(try await app.expect(0, "sync").json()["pushed"] == 2)

            try await other.expect(0, "refresh")
            #expect(try await other.expect(0, "get", "todos", kept).json() == ["id": .string(kept), "title": "keep", "done": true])
            try await other.expect(3, "get", "todos", gone)
        }
    }
}
