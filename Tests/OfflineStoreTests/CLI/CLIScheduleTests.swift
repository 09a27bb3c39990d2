import Foundation
import OfflineStore
import Testing

/// `sync --every`: one report line per run, backoff after failures, and a clean stop on
/// SIGTERM that loses nothing. Every wait is on the process's output or exit, never a sleep.
@Suite("CLI scheduled sync")
struct CLIScheduleTests {
    @Test(.liveServer) func runsTheGivenNumberOfTimes() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialise()
            try await store.expect(0, "create", "todos", #"{"t":1}"#, "--id", "a")
            let result = try await store.expect(0, "sync", "--every", "200ms", "--times", "3")
            let lines = try result.jsonLines()
            #expect(lines.count == 3)
            #expect(lines.map { $0["run"] } == [1, 2, 3])
            #expect(lines.map { $0["pushed"] } == [1, 0, 0])
            #expect(lines.allSatisfy { $0["error"] == .null && $0["exitCode"] == 0 && $0["at"]?.stringValue != nil })
            #expect(lines.map { $0["nextRunInMs"] } == [200, 200, .null])
            #expect(try await store.queue().isEmpty)
        }
    }

    @Test func backsOffAfterFailuresAndExitsWithTheLastRunsCode() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline()
            try await store.expect(0, "create", "todos", #"{"t":1}"#, "--id", "a")
            let result = try await store.expect(5, "sync", "--every", "100ms", "--times", "3")
            let lines = try result.jsonLines()
            #expect(lines.count == 3)
            #expect(lines.allSatisfy { $0["exitCode"] == 5 && $0["pending"] == 1 && $0["error"]?.stringValue != nil })
            // Equal jitter: after n failures the wait is in [100ms × 2ⁿ / 2, 100ms × 2ⁿ].
            let waits = lines.compactMap { $0["nextRunInMs"]?.intValue }
            #expect(waits.count == 2)
            #expect((100...200).contains(waits[0]), "\(waits)")
            #expect((200...400).contains(waits[1]), "\(waits)")
            #expect(try await store.queue().count == 1)
        }
    }

    @Test(.liveServer) func sigtermDuringARunFinishesItAndLosesNothing() async throws {
        try await CLIWorkspace.with { workspace in
            let a = try await workspace.store("a").initialise()
            for n in 1...5 { try await a.expect(0, "create", "todos", #"{"n":\#(n)}"#, "--id", "o\(n)") }
            let job = try workspace.start(["sync", "--every", "1h", "--store", a.path])
            // The notice comes after the signal handlers are installed, just before the first run.
            let notice = await job.stderr.first { $0.contains("syncing every") }
            try #require(notice != nil, "no start notice: \(job.stderr.lines)")
            job.send(SIGTERM)
            let result = try await job.finish()
            #expect(result.status == 0, "\(result)")
            let lines = try result.jsonLines()
            #expect(lines.count == 1, "the run in progress finishes and prints its report: \(result)")
            #expect(lines.first?["pending"] == 0)

            #expect(try await a.queue().isEmpty)
            let b = try await workspace.store("b").initialise()
            try await b.expect(0, "refresh")
            #expect(try await b.expect(0, "list", "todos").json().arrayValue?.count == 5)
        }
    }

    @Test func sigtermBetweenRunsStopsAtOnceAndKeepsTheQueue() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialiseOffline()
            try await store.expect(0, "create", "todos", #"{"t":1}"#, "--id", "a")
            try await store.expect(0, "update", "todos", "a", #"{"t":2}"#)
            let queued = try await store.queue()
            let job = try workspace.start(["sync", "--every", "1h", "--store", store.path])
            // The first run failed (unreachable) and the job waits for the next one.
            let first = await job.stdout.first { _ in true }
            try #require(first != nil, "no report line: \(job.stderr.lines)")
            job.send(SIGTERM)
            let result = try await job.finish()
            #expect(result.status == 0, "\(result)")
            #expect(result.stdoutLines.count == 1)
            #expect(try await store.queue() == queued)
            #expect(try await store.expect(0, "get", "todos", "a").json() == ["id": "a", "t": 2])
        }
    }
}
