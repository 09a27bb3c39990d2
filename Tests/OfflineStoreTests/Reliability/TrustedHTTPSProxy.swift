import Foundation

/// A TLS front for a plain-HTTP server on 127.0.0.1: a fresh certificate authority and a
/// server certificate it signed (`openssl`), and a python3 forwarder that terminates TLS
/// with that certificate and relays bytes to the upstream port. It logs every handshake,
/// so a test can tell a verified connection from one that never happened.
final class TrustedHTTPSProxy: Sendable {
    /// `https://127.0.0.1:<port>` plus the upstream URL's path.
    let url: URL
    /// The certificate authority (PEM): the bundle a client must trust.
    let authorityPath: String
    private let child: Spawned
    private let logPath: String

    static let script = """
        import socket, ssl, sys, threading
        cert, key, upstream_port, log = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
        s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(32)
        print("listening", s.getsockname()[1], flush=True)
        def note(text):
            with open(log, "a") as f: f.write(text + "\\n")
        def pump(a, b):
            try:
                while True:
                    data = a.recv(65536)
                    if not data: break
                    b.sendall(data)
            except OSError: pass
            for c in (a, b):
                try: c.shutdown(socket.SHUT_RDWR)
                except OSError: pass
        def serve(c):
            try:
                t = ctx.wrap_socket(c, server_side=True)
            except Exception as e:
                note("handshake failed: %s" % e); c.close(); return
            note("handshake ok")
            u = socket.create_connection(("127.0.0.1", upstream_port))
            threading.Thread(target=pump, args=(u, t), daemon=True).start()
            pump(t, u)
        while True:
            c, _ = s.accept()
            threading.Thread(target=serve, args=(c,), daemon=True).start()
        """

    /// Makes the authority and the certificate in `directory` and starts the proxy in front
    /// of `upstream` (an `http://127.0.0.1:…` URL), off the concurrency pool.
    static func start(upstream: URL, in directory: TemporaryDirectory) async throws -> TrustedHTTPSProxy {
        try await offPool { try TrustedHTTPSProxy(upstream: upstream, directory: directory) }
    }

    private init(upstream: URL, directory: TemporaryDirectory) throws {
        guard upstream.host == "127.0.0.1", let upstreamPort = upstream.port else {
            throw HarnessError("the upstream must be http://127.0.0.1:PORT, not \(upstream)")
        }
        authorityPath = directory.path("ca.pem")
        let authorityKey = directory.path("ca.key"), key = directory.path("server.key"), request = directory.path("server.csr")
        let certificate = directory.path("server.pem"), extensions = directory.path("server.ext")
        logPath = directory.path("tls-proxy.log")
        try "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(toFile: extensions, atomically: true, encoding: .utf8)
        for command in [
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", authorityKey, "-out", authorityPath,
             "-days", "1", "-subj", "/CN=OfflineStore test CA", "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            ["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=127.0.0.1"],
            ["openssl", "x509", "-req", "-in", request, "-CA", authorityPath, "-CAkey", authorityKey, "-CAcreateserial",
             "-out", certificate, "-days", "1", "-extfile", extensions],
        ] {
            guard try Spawned(command, stderrPath: directory.path("openssl.log")).wait() == 0 else {
                throw HarnessError("openssl failed: \(command.joined(separator: " ")): "
                    + ((try? String(contentsOfFile: directory.path("openssl.log"), encoding: .utf8)) ?? ""))
            }
        }
        child = try Spawned(["python3", "-c", Self.script, certificate, key, String(upstreamPort), logPath],
                            stderrPath: logPath + ".stderr")
        let port = try child.listeningPort("the TLS proxy")
        url = URL(string: "https://127.0.0.1:\(port)\(upstream.path)")!
    }

    /// The handshake lines of the log: "handshake ok" or "handshake failed: …".
    func handshakes() -> [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Stops the proxy, off the concurrency pool.
    func stop() async {
        let child = self.child
        child.kill()
        _ = try? await offPool { child.wait() }
    }
}
