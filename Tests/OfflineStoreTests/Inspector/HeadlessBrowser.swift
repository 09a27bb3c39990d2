import Foundation
import OfflineStore
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Debian's headless Chromium driven through chromedriver, for one test.
///
/// chromedriver runs on a free port of 127.0.0.1 as a child process (with the CLI tests'
/// watchdog); the session opens Chromium headless. A missing browser or one that cannot
/// start fails the test with what to do (`scripts/browser install`); it never skips.
enum HeadlessBrowser {
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// An executable on `PATH` (or one of `fallbacks`).
    static func executable(_ name: String, fallbacks: [String] = []) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").map { "\($0)/\(name)" } + fallbacks
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Unavailable(description: "\(name) is not installed: run `scripts/browser install` "
                + "(Debian's chromium and chromium-driver); the inspector's browser test cannot run without it")
        }
        return URL(fileURLWithPath: found)
    }

    /// Runs `body` with a fresh browser session; chromedriver and Chromium end afterwards.
    static func with<T>(in directory: URL, _ body: (WebDriver) async throws -> T) async throws -> T {
        let chromium = try executable("chromium", fallbacks: ["/usr/lib/chromium/chromium"])
        let chromedriver = try executable("chromedriver", fallbacks: ["/usr/lib/chromium/chromedriver"])
        let port = KintoServer.closedPort()
        let driverProcess = try CLIProcess(["--port=\(port)"], environment: ProcessInfo.processInfo.environment,
                                           directory: directory, timeout: .seconds(600), executable: chromedriver)
        defer { driverProcess.send(SIGKILL) }  // chromedriver ignores SIGTERM; its session is closed first
        let driver = URL(string: "http://127.0.0.1:\(port)")!
        try await waitUntilReady(driver, process: driverProcess)
        let session: WebDriver
        do { session = try await WebDriver.open(driver: driver, chromium: chromium.path) } catch {
            throw Unavailable(description: "Chromium did not start under chromedriver: \(error)")
        }
        do {
            let result = try await body(session)
            await session.close()
            return result
        } catch {
            await session.close()
            throw error
        }
    }

    private static func waitUntilReady(_ driver: URL, process: CLIProcess) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let ready = try? await WebDriver.call("GET", driver.appendingPathComponent("status"), nil),
               ready["ready"] == true { return }
            try await Task.sleep(for: .milliseconds(100))  // a poll interval, not a synchronisation
        }
        throw Unavailable(description: "chromedriver did not answer on \(driver) within 30 s; stderr: "
            + process.stderr.lines.joined(separator: "\n"))
    }
}

/// `offline-store inspect` running for one test, and the address it printed.
struct InspectorProcess {
    let process: CLIProcess
    let url: String

    /// Starts `inspect --port 0 [--allow-writes]` on a CLI store and waits for its address.
    static func start(_ store: CLIStore, allowWrites: Bool) async throws -> InspectorProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["OFFLINE_STORE"] = nil
        environment["CLI_PASSWORD"] = "secret"
        let arguments = ["inspect", "--port", "0", "--store", store.path] + (allowWrites ? ["--allow-writes"] : [])
        let process = try CLIProcess(arguments, environment: environment, directory: store.workspace.directory.url,
                                     timeout: .seconds(600))
        guard let line = await process.stdout.first(where: { $0.hasPrefix("{") }),
              let url = try JSONValue(parsing: line)["url"]?.stringValue else {
            let result = try await process.finish()
            throw HeadlessBrowser.Unavailable(description: "offline-store inspect printed no address: \(result)")
        }
        return InspectorProcess(process: process, url: url)
    }

    /// SIGTERM, then the exit status.
    func stop() async throws -> CLIResult {
        process.send(SIGTERM)
        return try await process.finish()
    }
}

/// The test Kinto's copy of a record, read over HTTP as alice.
func kintoRecord(bucket: String, collection: String, id: String) async throws -> JSONValue? {
    let base = try KintoServer.url()
    var request = URLRequest(url: base.appendingPathComponent("buckets/\(bucket)/collections/\(collection)/records/\(id)"))
    request.setValue("Basic " + Data("alice:secret".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    if status == 404 { return nil }
    try #require(status == 200, "GET record \(id): HTTP \(status) \(String(decoding: data, as: UTF8.self))")
    return try JSONValue(parsing: data)["data"]
}
