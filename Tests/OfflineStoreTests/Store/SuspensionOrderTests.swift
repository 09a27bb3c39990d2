import Foundation
import Testing

/// The order of suspension and resumption an app follows (Docs/ApplePlatforms.md: the scene
/// delegate and BackgroundSyncExample, the background task the docs show byte for byte):
/// after the store and its databases were suspended, a write succeeds only once the
/// database resumption was posted too. Run by `crash-writer lifecycle` in a process of its
/// own, since GRDB's notifications reach every store of a process.
@Suite struct SuspensionOrderTests {
    /// The lines `crash-writer lifecycle` prints, by step, and its exit status.
    static func lifecycle(at path: String, stderrPath: String) async throws -> (steps: [String: String], status: Int32) {
        let writer = try #require(ObjectStoreCrashTests.writerURL(),
                                  "the crash-writer executable was not found: build it with `swift build --build-tests`")
        // Reading the pipe blocks, so it happens on a thread of its own, not on the test's executor.
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let child = try ChildSpawn(executable: writer.path, arguments: ["lifecycle", path], stderr: .file(stderrPath))
                    var steps: [String: String] = [:]
                    child.forEachOutputLine { line in
                        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                        if parts.count == 2 { steps[parts[0]] = parts[1] }
                    }
                    return (steps, child.waitForExit())
                })
            }.start()
        }
    }

    @Test func aWriteAfterTheSuspensionSucceedsOnlyOnceTheDatabasesAreResumedToo() async throws {
        try await withTemporaryDirectory { directory in
            let stderrPath = directory.path("stderr.txt")
            let (steps, status) = try await Self.lifecycle(at: directory.path("store.sqlite"), stderrPath: stderrPath)
            let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            #expect(status == 0, "crash-writer lifecycle exited with \(status): \(stderr)")

            // Suspended (store and databases): nothing is written.
            #expect(steps["scene-suspended-edit"] == "storage", "\(steps)")
            // The earlier example's order: resume() without the notification, every write fails.
            #expect(steps["resumed-without-notification-sync"] == "storage", "\(steps)")
            #expect(steps["resumed-without-notification-edit"] == "storage", "\(steps)")
            // BackgroundSync.run resumes both, syncs, and suspends both again.
            #expect(steps["background-run"] == "true", "\(steps)")
            #expect(steps["server-records"] == "before", "the edit queued before the suspension reached the server: \(steps)")
            #expect(steps["after-background-edit"] == "storage", "\(steps)")
            // resume(postingDatabaseNotification: true): the app writes again.
            #expect(steps["foreground-edit"] == "ok", "\(steps)")
        }
    }
}
