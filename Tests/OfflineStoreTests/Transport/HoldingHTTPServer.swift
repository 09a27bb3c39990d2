import Foundation

/// An HTTP server on 127.0.0.1, run by python3, that holds the answer to `/hold` (POST or
/// GET) until `GET /release` arrives (on another connection), so a test can act while a
/// request is on the wire and unanswered. `/hold` echoes its body with 200, or answers 504
/// when no release came within a minute; `POST /challenge` answers 401 with a Basic challenge.
final class HoldingHTTPServer: Sendable {
    /// `http://127.0.0.1:<port>/`.
    let url: URL
    private let child: Spawned

    static let script = """
        import http.server, threading
        released = threading.Event()
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def answer(self, status, body=b"", headers=()):
                self.send_response(status)
                for name, value in headers: self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path == "/hold":
                    self.answer(200 if released.wait(60) else 504, body)
                elif self.path == "/challenge":
                    self.answer(401, b"who are you", [("WWW-Authenticate", 'Basic realm="test"')])
                else:
                    self.answer(404)
            def do_GET(self):
                if self.path == "/hold":
                    self.answer(200 if released.wait(60) else 504, b"held")
                    return
                if self.path == "/release": released.set()
                self.answer(200, b"ok")
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print("listening", server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// Runs `body` with a server started for it, and stops the server afterwards, also when
    /// `body` throws (a server left running would outlive the test process).
    static func with<T: Sendable>(_ body: (HoldingHTTPServer) async throws -> T) async throws -> T {
        let server = try await offPool { try HoldingHTTPServer() }
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    private init() throws {
        child = try Spawned(["python3", "-c", Self.script])
        let port = try child.listeningPort("the holding HTTP server")
        url = URL(string: "http://127.0.0.1:\(port)/")!
    }

    /// The URL of `path` on the server.
    func url(_ path: String) -> URL { url.appendingPathComponent(path) }

    /// Stops the server, off the concurrency pool.
    func stop() async {
        let child = self.child
        child.kill()
        _ = try? await offPool { child.wait() }
    }
}
