import Foundation
import Testing

extension Models {
    /// Runs `Examples/TodoSync` (the `todo-sync-example` executable) against the real Kinto.
    @Suite("TodoSync example on Kinto", .timeLimit(.minutes(5)))
    struct TodoSyncExampleTests {
        @Test(.liveServer) func theExampleRunsToTheEnd() async throws {
            let executable = try #require(ChildProcess.built("todo-sync-example"),
                                          "todo-sync-example is not built: run swift build --build-tests")
            let url = try KintoServer.url()
            try await withTemporaryDirectory { directory in
                let outcome = try await ChildProcess(executable: executable, arguments: [url.absoluteString])
                    .run(stderrPath: directory.path("stderr")) { _ in .goOn }
                #expect(outcome.exitStatus == 0, "\(outcome.lines.joined(separator: "\n"))\n\(outcome.stderr)")
                #expect(!outcome.lines.contains { $0.hasPrefix("FAILED") })
                #expect(outcome.lines.contains("ok: the laptop has the merged to-do"))
                #expect(outcome.lines.contains { $0.hasPrefix("conflict field title") })
                #expect(outcome.lines.contains { $0.hasPrefix("live: open =") })
                #expect(outcome.lines.last == "done")
            }
        }
    }
}
