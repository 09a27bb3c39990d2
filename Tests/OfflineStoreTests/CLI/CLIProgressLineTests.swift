import Foundation
import OfflineStorePlatform
import OfflineStoreTestPlatform
import Testing

/// The live progress line of `sync`, shown only when stderr is a terminal: the CLI writes
/// its standard error to a pseudo-terminal the test reads (``PseudoTerminal``, the same on
/// macOS and Linux), and its report to a pipe as usual.
@Suite("CLI progress line")
struct CLIProgressLineTests {
    @Test(.liveServer) func aSyncOnATerminalShowsPushAndPullProgressFromTheSyncEvents() async throws {
        try await CLIWorkspace.with { workspace in
            let store = try await workspace.store().initialise()
            for n in 1...3 { try await store.expect(0, "create", "todos", #"{"n":\#(n)}"#, "--id", "p\(n)") }
            let terminal = try PseudoTerminal()
            async let screen = Self.readToEnd(terminal)
            let result: CLIResult
            do {
                result = try await workspace.start(["sync", "--store", store.path], stderrTerminal: terminal.slavePath).finish()
            } catch {
                terminal.closeSlave()   // the read ends, and with it this scope
                _ = await screen
                throw error
            }
            terminal.closeSlave()
            let text = await screen

            #expect(result.status == 0, "\(result)")
            #expect(text.contains("sync: push todos 3/3, 3 processed"), "\(text)")
            #expect(text.contains("sync: pull todos"), "\(text)")
            #expect(text.contains("\u{1B}[2K"), "the line is erased and redrawn in place")
            #expect(result.stdoutLines.count == 1, "the report goes to standard output: \(result)")

            // Without a terminal nothing but the report is written.
            let plain = try await store.expect(0, "sync")
            #expect(!plain.stderr.contains("sync:") && plain.stdoutLines.count == 1)
        }
    }

    /// What was written to `terminal` until its slave side was closed everywhere. Reading
    /// blocks, so it happens on a thread of its own, not on the test's executor.
    static func readToEnd(_ terminal: PseudoTerminal) async -> String {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: String(decoding: terminal.readToEnd(), as: UTF8.self)) }.start()
        }
    }
}
