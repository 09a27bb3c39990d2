import Foundation
@testable import OfflineStore
import Testing

/// On a service without change tracking, deletions are found by absence: when another client
/// deletes the last entities of a set, the full pull lists none, and the store sweeps its
/// copies rather than taking the empty set for a server that lost its data (which it does
/// for a backend with tombstones, where an empty pull from the beginning means exactly that).
@Suite("OData: an emptied entity set is swept")
struct ODataEmptyListingTests {
    /// Lists the tasks `listed` holds, one page, no delta link.
    static func page(_ ids: [String]) -> HTTPResponse {
        let entities = ids.map { #"{"@odata.etag":"W/\"1\"","ID":"\#($0)","Title":"t"}"# }.joined(separator: ",")
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                            body: Data(#"{"value":[\#(entities)]}"#.utf8))
    }

    @Test func theLastEntitiesDeletedOnTheServerAreSweptNotReportedAsLostData() async throws {
        let id = ODataBackendScriptedTests.ids[0]
        let listed = Locked([id])
        let script = ODataBackendScriptedTests.Script { _ in Self.page(listed.withLock { $0 }) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("odata-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try ObjectStore(path: directory.appendingPathComponent("store.sqlite").path,
                                    backend: ODataBackend(configuration: .init(serviceRoot: ODataBackendScriptedTests.root), transport: script))
        defer { try? store.close() }
        try store.register(CollectionDescriptor("Tasks"))
        #expect(try await store.refresh().pulled == 1)
        #expect(try store.collection("Tasks").find(id) != nil)

        listed.withLock { $0 = [] }
        let report = try await store.refresh()
        #expect(report.swept == 1)
        #expect(try store.collection("Tasks").find(id) == nil)
    }
}
