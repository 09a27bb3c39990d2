import Foundation
import OfflineStore
import Testing

/// A REST resource's `idPattern`: client-chosen ids are checked at edit time, before
/// anything is written; temporary ids of server-assigned resources are never checked.
@Suite("REST id pattern")
struct RESTIDPatternTests {
    static func resources() -> [String: RESTResource] {
        var tags = RESTResource(path: "/tags", wrapKey: "tag")
        tags.ids = .client
        tags.idPattern = "[0-9]+"
        var notes = RESTResource(path: "/notes", wrapKey: "note")
        notes.idPattern = "[0-9]+"                      // ignored: the server assigns ids
        var broken = RESTResource(path: "/broken")
        broken.ids = .client
        broken.idPattern = "([0-9"
        return ["tags": tags, "notes": notes, "broken": broken, "free": { var r = RESTResource(path: "/free"); r.ids = .client; return r }()]
    }

    static func backend() -> RESTBackend {
        RESTBackend(configuration: .init(baseURL: URL(string: "http://127.0.0.1:9/")!, resources: resources()),
                    transport: ScriptedTransport([]))
    }

    @Test func clientIDsMustMatchTheWholePattern() throws {
        let backend = Self.backend()
        try backend.validate(id: "12345", in: "tags")
        for bad in ["12a", "a12", "", "1 2"] {
            let error = #expect(throws: OfflineStoreError.self) { try backend.validate(id: bad, in: "tags") }
            #expect(error?.code == .invalidID)
            #expect(error?.message.contains("[0-9]+") == true)
        }
        try backend.validate(id: "anything-goes", in: "notes")
        try backend.validate(id: String(repeating: "é/?#", count: 200), in: "free")
        let broken = #expect(throws: OfflineStoreError.self) { try backend.validate(id: "1", in: "broken") }
        #expect(broken?.code == .configuration)
    }

    @Test func aStoreRefusesAnIDOutsideThePatternAndWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ObjectStore.Configuration()
        configuration.writeMode = .deferred                 // queued, not sent: the check is local
        let store = try ObjectStore(path: directory.path("store.sqlite"), configuration: configuration, backend: Self.backend())
        try store.register(CollectionDescriptor("tags"))
        let tags = store.collection("tags")
        let error = await #expect(throws: OfflineStoreError.self) { try await tags.create(["id": "red", "name": "Red"]) }
        #expect(error?.code == .invalidID)
        #expect(try store.queueCount() == 0)
        #expect(try tags.find("red") == nil)
        try await tags.create(["id": "42", "name": "Answer"])
        #expect(try store.queueCount() == 1)
    }
}
