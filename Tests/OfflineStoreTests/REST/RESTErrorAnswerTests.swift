import Foundation
import Testing
@testable import OfflineStore

/// How the REST backend reads answers that are not what a resource expects (scripted): a
/// redirect, an HTML error page, the 5xx that are retried and those that are not.
@Suite("REST error answers")
struct RESTErrorAnswerTests {
    /// Computed: LeakSanitizer reports a `Data` that a static still holds at exit as leaked.
    static var django500: HTTPResponse { HTTPResponse(status: 500, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data("""

        <!doctype html>
        <html lang="en">
        <head>
          <title>Server Error (500)</title>
        </head>
        <body>
          <h1>Server Error (500)</h1><p></p>
        </body>
        </html>
        """.utf8)) }

    static func backend(_ answers: [HTTPResponse]) -> RESTBackend {
        var tasks = RESTResource(path: "/tasks")
        tasks.formatSuffix = nil
        return RESTBackend(configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!, resources: ["tasks": tasks]),
                           transport: ScriptedTransport(answers))
    }

    static func create(attempt: Int = 1) -> PushOperation {
        var operation = PushOperation(id: "tmp", kind: .create, data: ["id": "tmp", "title": "x"], baseVersion: nil, idempotencyKey: "k")
        operation.attempt = attempt
        return operation
    }

    @Test func aRedirectIsAConfigurationErrorNamingWhereItPointed() async throws {
        let moved = HTTPResponse(status: 301, headers: ["Location": "/tasks/"], body: Data())
        let backend = Self.backend([moved, moved])
        await #expect { try await backend.pull(PullRequest(collection: "tasks")) } throws: { error in
            let error = error as? OfflineStoreError
            return error?.code == .configuration && error?.status == 301
                && error?.message.contains("was redirected (HTTP 301) to http://127.0.0.1:9/tasks/") == true
                && error?.message.contains("the route lacks its trailing slash") == true
        }
        await #expect { try await backend.push([Self.create()], collection: "tasks") } throws: { error in
            (error as? OfflineStoreError)?.code == .configuration && "\(error)".contains("POST http://127.0.0.1:9/tasks")
        }
    }

    @Test func anHTMLErrorPageShowsItsStatusAndTitle() async throws {
        let reply = RESTReply(Self.django500)
        #expect(reply.htmlTitle == "Server Error (500)")
        let error = reply.error("pulling tasks")
        #expect(error.message == "pulling tasks: HTTP 500 \"Server Error (500)\"")
        #expect(error.body == "Server Error (500)", "the title, not the page's markup")
        #expect(RESTReply(ScriptedTransport.json(500, ["error": "x"])).htmlTitle == nil)
        let backend = Self.backend([Self.django500])
        await #expect { try await backend.pull(PullRequest(collection: "tasks")) } throws: { error in
            (error as? OfflineStoreError)?.message == "pulling tasks: HTTP 500 \"Server Error (500)\""
        }
    }

    /// A title shortened to 200 characters ends on a word, not on the space after it (found by
    /// the rest-headers fuzz target).
    @Test func aLongHTMLTitleIsShortenedWithoutATrailingSpace() {
        let title = String(repeating: "a", count: 199) + " tail of a long title"
        let page = HTTPResponse(status: 502, headers: ["Content-Type": "text/html"],
                                body: Data("<html><title>\(title)</title></html>".utf8))
        #expect(RESTReply(page).htmlTitle == String(repeating: "a", count: 199))
    }

    @Test func a500IsRetriedUntilTheThirdSendAndAPermanentOneIsRejectedAtOnce() async throws {
        let outcomes = try await Self.backend([Self.django500, Self.django500]).push([Self.create(attempt: 1)], collection: "tasks")
        #expect(outcomes == [.retry(status: 500, message: "create of tasks/tmp: HTTP 500 \"Server Error (500)\"", retryAfter: nil)])
        let third = try await Self.backend([Self.django500]).push([Self.create(attempt: 3)], collection: "tasks")
        #expect(third == [.rejected(status: 500, body: "Server Error (500)")])
        let unimplemented = try await Self.backend([HTTPResponse(status: 501)]).push([Self.create()], collection: "tasks")
        #expect(unimplemented == [.rejected(status: 501, body: "")])
        let busy = try await Self.backend([HTTPResponse(status: 429, headers: ["Retry-After": "7"])]).push([Self.create()], collection: "tasks")
        #expect(busy == [.retry(status: 429, message: "create of tasks/tmp: HTTP 429", retryAfter: .seconds(7))])
    }

    @Test(arguments: [
        (400, 1, RESTFailureRule.reject), (422, 1, .reject), (408, 5, .retry), (425, 1, .retry), (429, 9, .retry),
        (500, 1, .retry), (500, 2, .retry), (500, 3, .reject), (500, 4, .reject), (501, 1, .reject), (502, 9, .retry),
        (503, 9, .retry), (504, 9, .retry), (505, 1, .reject), (507, 9, .retry), (508, 1, .reject), (599, 9, .retry),
    ])
    func failureRule(_ status: Int, _ attempt: Int, _ expected: RESTFailureRule) {
        #expect(RESTFailureRule.decide(status: status, attempt: attempt) == expected)
    }
}
