import Foundation
import OfflineStore
import OfflineStorePlatform
import OfflineStoreTestPlatform
import Testing

/// A successful HTTPS request and sync, with certificate verification on: the `offline-store`
/// tool syncs with the real Kinto through a TLS front whose certificate a fresh test
/// authority signed, in a child process that trusts that authority and nothing else
/// (`PrivateTrustStore`: a private mount namespace on Linux). The same sync without that
/// trust is refused, so the success is the verification's, not its absence.
@Suite("HTTPS with a trusted certificate authority (real Kinto)", .timeLimit(.minutes(5)))
struct HTTPSSyncTests {
    @Test(.liveServer) func aSyncOverVerifiedTLSSucceedsAndAnUntrustedOneIsRefused() async throws {
        let kinto = try #require(URL(string: try CLIKinto.url()))
        try await CLIWorkspace.with { workspace in
            let proxy = try await TrustedHTTPSProxy.start(upstream: kinto, in: workspace.directory)
            do {
                try await Self.check(workspace, proxy: proxy, kinto: kinto)
            } catch {
                await proxy.stop()
                throw error
            }
            await proxy.stop()
        }
    }

    static func check(_ workspace: CLIWorkspace, proxy: TrustedHTTPSProxy, kinto: URL) async throws {
        let store = workspace.directory.path("tls.sqlite")
        let cli = try CLIBinary.url().path
        func trusted(_ arguments: String...) async throws -> CLIResult {
            let command = try PrivateTrustStore.commandLine(trusting: proxy.authorityPath,
                                                            running: [cli] + arguments + ["--store", store])
            return try await workspace.start(Array(command.dropFirst()), executable: URL(fileURLWithPath: command[0])).finish()
        }
        let initialised = try await trusted("init", "--server", proxy.url.absoluteString, "--bucket", workspace.bucket,
                                            "--user", "alice", "--password-env", "CLI_PASSWORD", "--deferred")
        try #require(initialised.status == 0, "\(initialised)")
        try #require(try await trusted("collection", "add", "todos").status == 0)
        try #require(try await trusted("create", "todos", #"{"title":"over TLS"}"#, "--id", "tls1").status == 0)

        let synced = try await trusted("sync")
        #expect(synced.status == 0, "\(synced)")
        #expect(proxy.handshakes().contains("handshake ok"), "no verified TLS connection: \(proxy.handshakes())")
        #expect(!proxy.handshakes().contains { $0.hasPrefix("handshake failed") }, "\(proxy.handshakes())")

        // The record reached Kinto through the TLS front.
        let record = try await URLSessionTransport().send(HTTPRequest(method: "GET",
            url: kinto.appendingPathComponent("buckets/\(workspace.bucket)/collections/todos/records/tls1"),
            headers: [("Authorization", KintoHarness.auth)]))
        #expect(record.status == 200)
        #expect(try JSONValue(parsing: String(decoding: record.body, as: UTF8.self))["data"]?["title"] == "over TLS")

        // Without the test authority, the same tool refuses the certificate: nothing is sent.
        let untrusted = try await workspace.run(["create", "todos", #"{"title":"refused"}"#, "--id", "tls2", "--store", store])
        #expect(untrusted.status == 0, "a deferred create stays local: \(untrusted)")
        let refused = try await workspace.run(["sync", "--store", store])
        #expect(refused.status != 0, "a sync through an untrusted certificate succeeded: \(refused)")
        #expect(proxy.handshakes().contains { $0.hasPrefix("handshake failed") }, "\(proxy.handshakes())")
        let missing = try await URLSessionTransport().send(HTTPRequest(method: "GET",
            url: kinto.appendingPathComponent("buckets/\(workspace.bucket)/collections/todos/records/tls2"),
            headers: [("Authorization", KintoHarness.auth)]))
        #expect(missing.status == 404 || missing.status == 403)
    }
}
