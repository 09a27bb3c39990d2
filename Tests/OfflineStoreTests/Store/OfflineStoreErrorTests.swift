import Foundation
import GRDB
import OfflineStoreTesting
import Testing
@testable import OfflineStore

/// What an app gets from an error: a sentence to show for each code, the case's reason, a
/// suggestion where there is one, the lower-level error, and one type for every call.
@Suite("OfflineStoreError as an app meets it")
struct OfflineStoreErrorTests {
    @Test(arguments: OfflineStoreError.Code.all)
    func everyCodeShowsASentence(_ code: OfflineStoreError.Code) {
        let error: any Error = OfflineStoreError(code, "something went wrong")
        let shown = error.localizedDescription
        #expect(shown == code.sentence)
        #expect(shown.first?.isUppercase == true && shown.hasSuffix("."), "a sentence: \(shown)")
        #expect(shown.count >= 20 && shown.count <= 80, "short enough for an alert: \(shown)")
        #expect(!shown.contains("operation couldn"), "not Foundation's generic text: \(shown)")
        if "\(code)".contains(where: \.isUppercase) { #expect(!shown.contains("\(code)"), "no code name: \(shown)") }
        // Every code has a suggestion, whatever the throwing path knew of the data.
        let suggestion = (error as? LocalizedError)?.recoverySuggestion ?? ""
        #expect(suggestion.first?.isUppercase == true && suggestion.hasSuffix("."), "a sentence: \(suggestion)")
    }

    @Test func everyCodeHasItsOwnSentence() {
        let sentences = OfflineStoreError.Code.all.map(\.sentence)
        #expect(Set(sentences).count == sentences.count)
        #expect(OfflineStoreError.Code.all.count == 31)   // a new code means a new row in Docs/Errors.md too
    }

    @Test func theFailureReasonIsTheMessageAsASentence() {
        let error = OfflineStoreError(.server, "pushing todos: the server failed", status: 503, body: "{}")
        #expect(error.failureReason == "Pushing todos: the server failed (HTTP 503).")
        #expect(error.recoverySuggestion == "Try again later.", "an unknown fate claims nothing about the data")
        #expect(error.with(.storedAndQueued).recoverySuggestion == "Your change is saved on this device and will be sent to the server later.")
        #expect(OfflineStoreError(.notFound, "no object a in todos").recoverySuggestion == "Refresh the view: the item may have been deleted.")
    }

    /// A message that already names the status ("HTTP 404", a server's answer with no text of
    /// its own) is not followed by it again.
    @Test func theStatusIsToldOnce() {
        let bare = OfflineStoreError(.server, "HTTP 404", status: 404)
        #expect(bare.failureReason == "HTTP 404.")
        #expect(bare.description == "server: HTTP 404")
        let titled = OfflineStoreError(.server, "pushing tasks: HTTP 500 \"Server Error (500)\"", status: 500)
        #expect(titled.failureReason == "Pushing tasks: HTTP 500 \"Server Error (500)\".")
        let other = OfflineStoreError(.server, "pulling todos: bucket missing", status: 404)
        #expect(other.failureReason == "Pulling todos: bucket missing (HTTP 404).")
        #expect(other.description == "server: pulling todos: bucket missing (HTTP 404)")
    }

    @Test func aReasonNeverChangesTheCaseOfACollectionName() async throws {
        try await withTemporaryStore(configuration: .deferred, collections: [CollectionDescriptor("notes", fields: [FieldSchema("title", .string, required: true)])]) { store in
            let notes = store.collection("notes")
            try await notes.create(["id": "n1", "title": "A"])
            let exists = await expectStoreError(.alreadyExists) { try await notes.create(["id": "n1", "title": "B"]) }
            #expect(exists?.failureReason == "Object notes/n1 already exists.")
            let missing = await expectStoreError(.notFound) { try await notes.destroy("n2") }
            #expect(missing?.failureReason == "Object notes/n2 does not exist.")
            let invalid = await expectStoreError(.schemaViolation) { try await notes.create(["id": "n3"]) }
            #expect(invalid?.failureReason == "Collection notes: field 'title' is required.")
        }
    }

    /// No message starts with a collection, object or user name, which ``failureReason``
    /// would capitalise ("Notes/n1 …"): each starts with a word that names what follows.
    @Test func noMessageStartsWithAName() throws {
        let pattern = try NSRegularExpression(pattern: #"OfflineStoreError\((\.[a-zA-Z]+|code), *"\\\((name|collection|collection\.name|descriptor\.name|user|id)\)"#)
        var found: [String] = []
        let sources = DocumentationTests.root.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                found.append("\(url.lastPathComponent): \((text as NSString).substring(with: match.range))")
            }
        }
        #expect(found.isEmpty, "start the message with a word (\"object notes/n1 …\", \"collection notes: …\"):\n\(found.joined(separator: "\n"))")
    }

    @Test func theSQLiteErrorIsKeptUnderneath() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.path("notes.txt")
            try String(repeating: "not a database\n", count: 200).write(toFile: path, atomically: true, encoding: .utf8)
            let error = #expect(throws: OfflineStoreError.self) { try ObjectStore(path: path) }
            #expect(error?.code == .notADatabase)
            let sqlite = try #require(error?.underlyingError as? DatabaseError)
            #expect(sqlite.resultCode == .SQLITE_NOTADB)
        }
    }

    @Test func aStoppedSyncThrowsTheSameTypeWithWhatItDid() async throws {
        let backend = PushFixture.backend()
        try await withTemporaryStore(backend: backend, collections: [CollectionDescriptor("todos")]) { store in
            backend.inject(.offline, times: 100)
            try await store.collection("todos").create(["id": "a"])      // queued: the server cannot be reached
            let error = await #expect(throws: OfflineStoreError.self) { try await store.sync() }
            #expect(error?.code == .offline)
            #expect(error?.report?.pending == 1)
            #expect(error?.localizedDescription == "The server could not be reached.")
            #expect(error.map { String(describing: $0) }?.hasPrefix("sync stopped early: offline:") == true)
        }
    }
}
