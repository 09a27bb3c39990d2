import Foundation
import OfflineStore
import Testing

/// `collection add NAME --scope FIELD=VALUE…` against the real Kinto: the scope is kept,
/// refresh pulls only what matches, a record moved out goes, and bad scopes are usage errors.
@Suite("CLI sync scopes")
struct CLIScopeTests {
    @Test(.liveServer) func aScopedCollectionSyncsItsSubsetFromTheCommandLine() async throws {
        try await CLIWorkspace.with { workspace in
            let a = try await workspace.store("a").initialise()
            let b = try await workspace.store("b").initialise()
            try await b.expect(0, "create", "todos", #"{"region":"north","t":1}"#, "--id", "n1")
            try await b.expect(0, "create", "todos", #"{"region":"north","t":2}"#, "--id", "n2")
            try await b.expect(0, "create", "todos", #"{"region":"south","t":3}"#, "--id", "s1")
            try await b.expect(0, "sync")

            let added = try await a.expect(0, "collection", "add", "todos", "--scope", "region=north").json()
            #expect(added["scope"] == [["field": "region", "op": "equal", "value": "north"]])
            #expect(try await a.expect(0, "refresh").json()["pulled"] == 2)
            let ids = try await a.expect(0, "list", "todos").json().arrayValue?.compactMap { $0["id"]?.stringValue }
            #expect(Set(ids ?? []) == ["n1", "n2"])

            // Re-adding without --scope keeps it; another client moves n2 out.
            #expect(try await a.expect(0, "collection", "add", "todos", "--conflict-policy", "merge").json()["scope"] != nil)
            try await b.expect(0, "update", "todos", "n2", #"{"region":"south"}"#, "--merge")
            try await b.expect(0, "sync")
            #expect(try await a.expect(0, "refresh").json()["leftScope"] == 1)
            let left = try await a.expect(0, "list", "todos").json().arrayValue?.compactMap { $0["id"]?.stringValue }
            #expect(left == ["n1"])

            // Operators and values: JSON when it parses, else text; the first operator decides.
            let notes = try await a.expect(0, "collection", "add", "notes", "--scope", "n>=3", "--scope", "done!=true",
                                           "--scope", #"code="007""#, "--scope", "tag=a=b").json()
            #expect(notes["scope"] == [["field": "n", "op": "atLeast", "value": 3], ["field": "done", "op": "notEqual", "value": true],
                                       ["field": "code", "op": "equal", "value": "007"], ["field": "tag", "op": "equal", "value": "a=b"]])

            // Bad scopes are usage errors that change nothing.
            for bad in ["region", "=north", "a.b=1"] {
                try await a.expect(64, "collection", "add", "todos", "--scope", bad)
            }
            try await a.expect(64, "collection", "add", "todos", "--scope", "region=south", "--clear-scope")
            #expect(try await a.expect(0, "collection", "list").json().arrayValue?.first { $0["name"] == "todos" }?["scope"]
                    == [["field": "region", "op": "equal", "value": "north"]])
            #expect(try await a.expect(0, "collection", "add", "todos", "--clear-scope").json()["scope"] == nil)
        }
    }

    /// `--read-access-loss purge` is stored, printed (the default, keep, is not), kept by a
    /// re-add without the option, and a value that is not a policy is a usage error.
    @Test(.liveServer) func theReadAccessPolicyIsSetFromTheCommandLine() async throws {
        try await CLIWorkspace.with { workspace in
            let a = try await workspace.store("a").initialise()
            #expect(try await a.expect(0, "collection", "add", "todos").json()["readAccessLoss"] == nil)
            #expect(try await a.expect(0, "collection", "add", "todos", "--read-access-loss", "purge").json()["readAccessLoss"] == "purge")
            #expect(try await a.expect(0, "collection", "add", "todos", "--conflict-policy", "merge").json()["readAccessLoss"] == "purge")
            try await a.expect(64, "collection", "add", "todos", "--read-access-loss", "drop")
            #expect(try await a.expect(0, "collection", "list").json().arrayValue?.first { $0["name"] == "todos" }?["readAccessLoss"] == "purge")
            #expect(try await a.expect(0, "collection", "add", "todos", "--read-access-loss", "keep").json()["readAccessLoss"] == nil)
        }
    }
}
