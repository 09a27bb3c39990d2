import Foundation

/// An HTTPS server on 127.0.0.1 with a fresh self-signed certificate (made by `openssl`),
/// run by python3; it logs every connection it accepts, so a test can tell "refused by
/// certificate verification" from "never reached".
final class SelfSignedHTTPSServer: Sendable {
    /// `https://127.0.0.1:<port>/`.
    let url: URL
    private let child: Spawned
    private let logPath: String

    static let script = """
        import socket, ssl, sys
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(sys.argv[1], sys.argv[2])
        s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
        print("listening", s.getsockname()[1], flush=True)
        while True:
            c, _ = s.accept()
            open(sys.argv[3], "a").write("accepted\\n")
            try:
                t = ctx.wrap_socket(c, server_side=True)
                t.recv(4096)
                t.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Length: 2\\r\\nConnection: close\\r\\n\\r\\nok")
                t.close()
            except Exception as e:
                open(sys.argv[3], "a").write("handshake failed: %s\\n" % e)
                c.close()
        """

    /// Makes the certificate and starts the server, off the concurrency pool.
    static func start(in directory: TemporaryDirectory) async throws -> SelfSignedHTTPSServer {
        try await offPool { try SelfSignedHTTPSServer(directory: directory) }
    }

    private init(directory: TemporaryDirectory) throws {
        let key = directory.path("tls.key"), cert = directory.path("tls.crt")
        logPath = directory.path("tls.log")
        let openssl = try Spawned(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                                   "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
        guard openssl.wait() == 0 else { throw HarnessError("openssl could not make a certificate") }
        child = try Spawned(["python3", "-c", Self.script, cert, key, logPath])
        let port = try child.listeningPort("the HTTPS server")
        url = URL(string: "https://127.0.0.1:\(port)/")!
    }

    /// Whether a client connected (the TLS handshake was at least attempted).
    func wasReachedOverTLS() -> Bool {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").contains("accepted")
    }

    /// Stops the server, off the concurrency pool.
    func stop() async {
        let child = self.child
        child.kill()
        _ = try? await offPool { child.wait() }
    }
}
