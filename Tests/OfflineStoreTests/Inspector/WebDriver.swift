import Foundation
import OfflineStore

/// A WebDriver client for chromedriver, over its JSON-over-HTTP protocol on 127.0.0.1
/// (W3C WebDriver): enough to drive the inspector's page — navigate, find, click, type,
/// read text, run a script, take a screenshot. No Selenium, no Python.
struct WebDriver: Sendable {
    /// The W3C key of an element reference in JSON.
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    /// An error chromedriver answered with, or a reply that was not WebDriver JSON.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `http://127.0.0.1:PORT/session/ID`.
    let session: URL

    /// Opens a headless Chromium session on the chromedriver at `driver`.
    ///
    /// - Throws: ``Failure`` with chromedriver's message when Chromium cannot start.
    static func open(driver: URL, chromium: String) async throws -> WebDriver {
        let options: JSONValue = [
            "binary": .string(chromium),
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1100", "--force-device-scale-factor=1", "--lang=en-US"],
        ]
        let capabilities: JSONValue = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome", "goog:chromeOptions": options,
        ]]]
        let value = try await call("POST", driver.appendingPathComponent("session"), capabilities)
        guard let id = value["sessionId"]?.stringValue else {
            throw Failure(description: "chromedriver gave no session id: \(value.serialized())")
        }
        return WebDriver(session: driver.appendingPathComponent("session").appendingPathComponent(id))
    }

    /// Ends the session (Chromium quits).
    func close() async {
        _ = try? await Self.call("DELETE", session, nil)
    }

    // MARK: Commands

    func navigate(_ url: String) async throws {
        _ = try await command("POST", "url", ["url": .string(url)])
    }

    /// The first element matching a CSS selector.
    func find(_ css: String) async throws -> String {
        let value = try await command("POST", "element", ["using": "css selector", "value": .string(css)])
        guard let id = value[Self.elementKey]?.stringValue else { throw Failure(description: "no element for \(css)") }
        return id
    }

    /// Every element matching a CSS selector.
    func findAll(_ css: String) async throws -> [String] {
        let value = try await command("POST", "elements", ["using": "css selector", "value": .string(css)])
        return (value.arrayValue ?? []).compactMap { $0[Self.elementKey]?.stringValue }
    }

    func click(_ css: String) async throws {
        try await withElement(css) { element in _ = try await command("POST", "element/\(element)/click", [:]) }
    }

    /// Replaces an input's text.
    func type(_ css: String, _ text: String) async throws {
        try await withElement(css) { element in
            _ = try await command("POST", "element/\(element)/clear", [:])
            _ = try await command("POST", "element/\(element)/value", ["text": .string(text)])
        }
    }

    /// The element's rendered text.
    func text(_ css: String) async throws -> String {
        var text = ""
        try await withElement(css) { element in text = try await command("GET", "element/\(element)/text", nil).stringValue ?? "" }
        return text
    }

    /// Runs `body` on the element, finding it again when the page re-rendered it in between
    /// (the live view redraws when the store changes): a stale reference is retried for 10 s.
    private func withElement(_ css: String, _ body: (String) async throws -> Void) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do { return try await body(try await find(css)) } catch let failure as Failure
                where failure.description.contains("stale element reference") && ContinuousClock.now < deadline {
                continue
            }
        }
    }

    /// Runs a script in the page; `return …` gives the result.
    func execute(_ script: String) async throws -> JSONValue {
        try await command("POST", "execute/sync", ["script": .string(script), "args": []])
    }

    /// A PNG of the viewport.
    func screenshot() async throws -> Data {
        guard let base64 = try await command("GET", "screenshot", nil).stringValue, let data = Data(base64Encoded: base64)
        else { throw Failure(description: "the screenshot was not base64 PNG") }
        return data
    }

    func setWindow(width: Int, height: Int) async throws {
        _ = try await command("POST", "window/rect", ["width": .int(Int64(width)), "height": .int(Int64(height))])
    }

    /// Clicks the navigation link `link` until `selector` shows: a click that lands while the
    /// page re-renders (after a write, the live view redraws it) is lost, so it is repeated.
    /// Seen twice on fresh machines: one click, then a 60 s wait for a view that never came.
    func navigate(to link: String, until selector: String, what: String) async throws {
        // Each attempt clicks once and gives the view 5 s to show before clicking again.
        for _ in 0..<11 {
            try? await click(link)
            do {
                try await wait(for: what, timeout: .seconds(5)) { try await !self.findAll(selector).isEmpty }
                return
            } catch {}
        }
        throw Failure(description: "timed out waiting for \(what)")
    }

    /// Polls `condition` until it holds or `timeout` passes; the failure names `what`.
    /// (60 s by default: under the full suite's load on 2 cores a page step took over 20 s.)
    func wait(for what: String, timeout: Duration = .seconds(60),
              _ condition: @Sendable () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        var lastError: (any Error)?
        while ContinuousClock.now < deadline {
            do { if try await condition() { return } } catch { lastError = error }
            try await Task.sleep(for: .milliseconds(100))  // a poll interval, not a synchronisation
        }
        throw Failure(description: "timed out waiting for \(what)" + (lastError.map { " (last error: \($0))" } ?? ""))
    }

    // MARK: Wire

    private func command(_ method: String, _ path: String, _ body: JSONValue?) async throws -> JSONValue {
        try await Self.call(method, session.appendingPathComponent(path), body)
    }

    /// One WebDriver request; returns the reply's `value`, throws its error.
    static func call(_ method: String, _ url: URL, _ body: JSONValue?) async throws -> JSONValue {
        let (_, data) = try await LoopbackHTTPClient.send(method, url, body: body.map { Data($0.serialized().utf8) })
        let reply: JSONValue
        do { reply = try JSONValue(parsing: data) } catch {
            throw Failure(description: "\(method) \(url.path): not JSON: \(String(decoding: data, as: UTF8.self))")
        }
        let value = reply["value"] ?? .null
        if let error = value["error"]?.stringValue {
            throw Failure(description: "\(method) \(url.path): \(error): \(value["message"]?.stringValue ?? "")")
        }
        return value
    }
}
