import Foundation
import Testing

/// The live progress line of `sync`, shown only when stderr is a terminal: run under
/// `script`, which gives the CLI a pseudo-terminal and copies everything it writes.
@Suite("CLI progress line")
struct CLIProgressLineTests {
    @Test(.liveServer) func aSyncOnATerminalShowsPushAndPullProgressFromTheSyncEvents() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialise()
            for n in 1...3 { try await store.expect(0, "create", "todos", #"{"n":\#(n)}"#, "--id", "p\(n)") }
            let command = try [CLIBinary.url().path, "sync", "--store", store.path].map { "'\($0)'" }.joined(separator: " ")
            let run = try workspace.start(["-qec", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"))
            let terminal = try await run.finish()

            #expect(terminal.status == 0, "\(terminal)")
            let text = terminal.stdoutLines.joined(separator: "\n")
            #expect(text.contains("sync: push todos 3/3, 3 processed"), "\(text)")
            #expect(text.contains("sync: pull todos"), "\(text)")
            #expect(text.contains("\u{1B}[2K"), "the line is erased and redrawn in place")

            // Without a terminal nothing but the report is written.
            let plain = try await store.expect(0, "sync")
            #expect(!plain.stderr.contains("sync:") && plain.stdoutLines.count == 1)
        }
    }
}
