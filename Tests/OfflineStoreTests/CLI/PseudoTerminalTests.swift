import Foundation
import OfflineStorePlatform
import OfflineStoreTestPlatform
import Testing

/// The pseudo-terminal the CLI's progress-line test writes to, without a server: a child
/// whose standard error is its slave side sees a terminal there, and everything it wrote
/// is read from the master side once it exited.
@Suite struct PseudoTerminalTests {
    @Test func aChildSeesATerminalAndWhatItWroteIsReadToTheEnd() async throws {
        let terminal = try PseudoTerminal()
        async let screen = CLIProgressLineTests.readToEnd(terminal)
        // 3,000 lines: more than a terminal buffers, so the read must run while the child writes.
        let script = #"if [ -t 2 ]; then echo terminal >&2; else echo pipe >&2; fi; i=0; "#
            + #"while [ $i -lt 3000 ]; do echo "line $i" >&2; i=$((i+1)); done; echo done"#
        let child = try ChildSpawn(executable: "/bin/sh", arguments: ["-c", script], stderr: .terminal(terminal.slavePath))
        let status = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: child.waitForExit()) }.start()
        }
        terminal.closeSlave()
        let text = await screen
        #expect(status == 0)
        #expect(text.hasPrefix("terminal\r\n"), "the child's standard error is a terminal: \(text.prefix(40))")
        #expect(text.contains("line 2999\r\n"), "everything written was read: \(text.suffix(40))")
        #expect(text.components(separatedBy: "\r\n").count == 3002, "one line each, newlines as the terminal writes them")
    }
}
