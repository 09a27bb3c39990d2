import Foundation
import OfflineStore
import Testing

/// REST resources from a JSON file (`RESTResourceFile`): the Rails example file describes
/// exactly the resources the Rails tests build in code, and every mistake names its path.
@Suite("REST resources file")
struct RESTResourceFileTests {
    static let railsFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/rails-resources.json")

    /// What a resource does, as text (RESTResource holds closures, so it is not Equatable).
    static func summary(_ r: RESTResource) -> String {
        let nested = r.nested.map { "\($0.path) \($0.operations.map(\.rawValue).sorted())" } ?? "-"
        let routes: [String] = [r.path, r.memberPath, r.formatSuffix ?? "-", r.wrapKey ?? "-", nested, "\(r.keyStyle)",
                                "\(r.renames.sorted { $0.key < $1.key })", "\(r.neverSent.sorted())", "\(r.codecs.keys.sorted())",
                                r.updateMethod.rawValue, "\(r.concurrency)", r.versionField ?? "-", "\(r.ids)", r.idPattern ?? "-",
                                "\(r.associations.sorted { $0.key < $1.key })", r.createLookupParameter ?? "-", "\(r.lostCreates)"]
        let pull: [String] = [r.pull.cursorParameter ?? "-", r.pull.cursorField, r.pull.tombstoneField ?? "-",
                              r.pull.listKey ?? "-", r.pull.countField ?? "-", r.pull.deletions.rawValue,
                              "\(r.pull.paging)", "\(r.pull.isEnabled)"]
        let blobs = "\(r.blobRoutes.mapValues { [$0.path, $0.method, $0.partName, $0.urlField, $0.sha256Field] + $0.metadataFields }.sorted { $0.key < $1.key })"
        return (routes + pull + [blobs]).joined(separator: " | ")
    }

    @Test func theRailsExampleFileDescribesTheRailsTestResources() throws {
        let file = try RESTResourceFile(contentsOf: Self.railsFile)
        let inCode = RailsServer.resources
        #expect(Set(file.resources.keys) == Set(inCode.keys))
        for (name, resource) in inCode {
            #expect(Self.summary(try #require(file.resources[name])) == Self.summary(resource), "\(name)")
        }
        #expect(file.idempotencyHeader == "Idempotency-Key")
        #expect(file.maxBatchSize == 25)
        let configuration = file.configuration(baseURL: URL(string: "http://127.0.0.1:3000")!, headers: ["Authorization": "Bearer t"])
        #expect(configuration.headers == ["Authorization": "Bearer t"])
        #expect(configuration.resources.count == 3)
    }

    @Test func everySettingHasAKeyAndNullSwitchesOffWhatCanBeOff() throws {
        let file = try RESTResourceFile(json: [
            "idempotencyHeader": .null, "maxBatchSize": 5,
            "resources": ["notes": [
                "path": "/api/notes", "memberPath": "/api/notes/{id}", "formatSuffix": .null, "keyStyle": "identity",
                "renames": ["title": "heading"], "neverSent": ["updatedAt"], "updateMethod": "PUT", "concurrency": "none",
                "versionField": .null, "ids": "client", "idPattern": "[a-z0-9-]+", "createLookupParameter": "key",
                "pull": ["cursorParameter": "since", "cursorField": "updatedAt", "tombstoneField": .null, "listKey": "notes",
                         "enabled": true, "paging": ["kind": "pageNumber", "pageParameter": "p", "sizeParameter": "n", "size": 50]],
            ]],
        ])
        #expect(file.idempotencyHeader == nil)
        #expect(file.maxBatchSize == 5)
        let notes = try #require(file.resources["notes"])
        #expect(notes.formatSuffix == nil && notes.versionField == nil && notes.pull.tombstoneField == nil)
        #expect(notes.ids == .client && notes.idPattern == "[a-z0-9-]+" && notes.updateMethod == .put)
        #expect(notes.pull.paging == .pageNumber(page: "p", sizeParameter: "n", size: 50))
        #expect(notes.renames == ["title": "heading"] && notes.pull.listKey == "notes")
    }

    @Test(arguments: [
        (#"{"resources":{"orders":{"path":"/orders","wrapkey":"order"}}}"#, "resources.orders.wrapkey is not a setting"),
        (#"{"resources":{"orders":{"wrapKey":"order"}}}"#, "resources.orders.path is required"),
        (#"{"resources":{"orders":{"path":7}}}"#, "resources.orders.path must be a string"),
        (#"{"resources":{"o":{"path":"/o","pull":{"paging":{"kind":"offset"}}}}}"#, "resources.o.pull.paging.kind must be one of"),
        (#"{"resources":{"o":{"path":"/o","ids":"uuid"}}}"#, "resources.o.ids must be one of client, server"),
        (#"{"resources":{"o":{"path":"/o","associations":{"c":"customers"}}}}"#, "names \"customers\", which has no resource"),
        (#"{"resources":{"o":{"path":"/o","codecs":{"price":"money"}}}}"#, "names the codec \"money\""),
        (#"{"resources":{"o":{"path":"/o","nested":{"path":"/x/{a}/o","for":["delete"]}}}}"#, "expected create or update"),
        (#"{"resources":{}}"#, "must name at least one collection"),
        (#"{"resource":{}}"#, "resources is required"),
        (#"{"resources":{"o":{"path":"/o"}},"maxBatchSize":0}"#, "maxBatchSize must be a whole number"),
        (#"[]"#, "must be a JSON object"),
    ])
    func mistakesAreConfigurationErrorsNamingTheSetting(_ text: String, _ expected: String) throws {
        let error = #expect(throws: OfflineStoreError.self) { try RESTResourceFile(json: try JSONValue(parsing: text)) }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains(expected) == true, "\(String(describing: error?.message))")
    }
}
