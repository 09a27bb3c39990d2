import Foundation
import Testing
@testable import OfflineStore
import OfflineStoreServerCheck

/// `RESTBackend.checkServer` and `offline-store check-server` against the real DRF app: DRF's
/// defaults miss every guarantee a Rails-style resources file relies on; the server recipe
/// gives them all; a file written for plain DRF relies on none it lacks, and the check warns
/// about its `concurrency: none`.
@Suite("REST server check on DRF")
struct RESTServerCheckTests {
    static let sample: [String: JSONValue] = ["tasks": ["title": "offline-store check"]]

    static func outcomes(_ check: RESTServerCheck) -> [String: RESTServerCheck.Outcome] {
        Dictionary(uniqueKeysWithValues: check.rows.map { ($0.guarantee.rawValue, $0.outcome) })
    }

    @Test(.liveServer) func everyGuaranteeHoldsOnTheRecipe() async throws {
        let space = DRFServer.newSpace()
        let backend = try DRFServer.backend(["tasks": DRFServer.recipeResource(space: space)])
        let check = try await backend.checkServer(samples: Self.sample)
        #expect(check.holds, "\(check.rows.map { "\($0.guarantee): \($0.outcome) \($0.detail)" })")
        #expect(check.rows.count == RESTServerCheck.Guarantee.allCases.count)
        #expect(check.rows.allSatisfy { $0.outcome == .holds && $0.reliedOn && $0.fix == nil })
        let left = try await DRFServer.request("GET", "/recipe/\(space)/tasks/")
        #expect(left.json?["count"] == 0, "the scratch records are removed: \(String(describing: left.json))")
    }

    @Test(.liveServer) func plainDRFMissesWhatARailsStyleFileReliesOn() async throws {
        let space = DRFServer.newSpace()
        var tasks = DRFServer.recipeResource(space: space)
        tasks.path = "/plain/\(space)/tasks/"
        tasks.memberPath = "/plain/\(space)/tasks/{id}/"
        tasks.versionField = nil
        let check = try await DRFServer.backend(["tasks": tasks]).checkServer(samples: Self.sample)
        #expect(!check.holds)
        let outcomes = Self.outcomes(check)
        #expect(outcomes == ["staleUpdate": .fails, "staleDelete": .fails, "incrementalPull": .fails, "deletions": .fails,
                             "paging": .holds, "idempotentCreate": .fails], "\(check.rows.map(\.detail))")
        #expect(check.rows.filter(\.isMissing).allSatisfy { $0.fix?.contains("server recipe") == true })
        let left = try await DRFServer.request("GET", "/plain/\(space)/tasks/")
        #expect(left.json?["count"] == 0, "the scratch records and the duplicate are removed")
    }

    @Test(.liveServer) func theCommandPrintsTheRowsAndExits2WhenAGuaranteeIsMissing() async throws {
        try await CLIWorkspace.with { workspace in
            let space = DRFServer.newSpace()
            for (variant, file, expected) in [(DRFServer.Variant.plain, "plain", Int32(0)), (.recipe, "recipe", 0), (.plain, "mismatch", 2)] {
                var text = try DRFServer.fileText(variant == .plain && file == "mismatch" ? .recipe : variant, space: space)
                if file == "mismatch" { text = text.replacingOccurrences(of: "/recipe/", with: "/plain/") }
                let path = workspace.directory.path("\(file).json")
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                let store = workspace.store(file)
                try await store.expect(0, "init", "--server", try DRFServer.url().absoluteString, "--backend", "rest", "--resources", path)
                let result = try await store.expect(expected, "check-server", "--sample", #"tasks={"title":"cli check"}"#)
                let rows = try result.jsonLines()
                #expect(rows.count == 6 && rows.allSatisfy { $0["collection"] == "tasks" }, "\(result)")
                let missing = rows.filter { $0["outcome"] == "fails" && $0["reliedOn"] == true }.compactMap { $0["guarantee"]?.stringValue }
                switch file {
                case "recipe": #expect(missing.isEmpty)
                case "plain":
                    #expect(missing.isEmpty)
                    let update = try #require(rows.first { $0["guarantee"] == "staleUpdate" })
                    #expect(update["outcome"] == "fails" && update["reliedOn"] == false)
                    #expect(update["detail"]?.stringValue?.contains("the last write wins") == true)
                default: #expect(Set(missing) == ["staleUpdate", "staleDelete", "incrementalPull", "deletions", "idempotentCreate"])
                }
            }
            let recipe = workspace.store("recipe")
            let table = try await recipe.expect(0, "check-server", "--text", "--sample", #"tasks={"title":"t"}"#)
            #expect(table.stdoutLines.first?.hasPrefix("tasks.staleUpdate") == true && table.stdoutLines.count == 6, "\(table)")
            // An immediate create prints the object under the id the server gave it.
            try await recipe.expect(0, "collection", "add", "tasks")
            let made = try await recipe.expect(0, "create", "tasks", #"{"title":"immediate"}"#).json()
            #expect(Int(made["id"]?.stringValue ?? "") != nil && made["title"] == "immediate", "\(made)")
        }
    }
}

/// The DRF recipe in Docs/Backends.md is the module the DRF test app runs.
@Suite("REST server recipes in the docs")
struct RESTServerRecipeDocTests {
    @Test func theDocumentedDRFRecipeIsTheTestAppsModule() throws {
        let root = DocumentationTests.root
        let module = try String(contentsOf: root.appendingPathComponent("Fixtures/drf-server/tasks/offline_store.py"), encoding: .utf8)
        let doc = try String(contentsOf: root.appendingPathComponent("Docs/Backends.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "```python\n"))
        let end = try #require(doc.range(of: "\n```", range: start.upperBound..<doc.endIndex))
        #expect(String(doc[start.upperBound..<end.lowerBound]) + "\n" == module)
    }
}
