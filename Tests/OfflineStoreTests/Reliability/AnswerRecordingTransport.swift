import Foundation
import OfflineStore

/// Passes requests on and remembers each exchange: the request, the answer's status, and
/// the cluster node that served it (the `X-Kinto-Node` header scripts/cluster's haproxy
/// adds; nil where an answer has none); and where the Kinto pulls through it ended their
/// pages (``PageEnds``).
final class AnswerRecordingTransport: HTTPTransport {
    /// One request and what came back.
    struct Exchange: Sendable {
        var request: HTTPRequest
        var status: Int
        var node: String?
    }

    private let base: any HTTPTransport
    private let recorded = Locked<[Exchange]>([])
    private let ends = Locked(PageEnds())
    private let lines = Locked<[String]>([])

    /// One line per GET answered: its query, status, ETag, Date, whether a next page
    /// followed, and every listed `id@last_modified` (`†` for a tombstone).
    var listing: [String] { lines.withLock { $0 } }

    /// The `last_modified` every Kinto page with a `Next-Page` ended at, with the bound (the
    /// first answer's `ETag`) of the pull it belonged to. Kinto's next page starts above the
    /// end, so another record of the same timestamp is skipped; the next pull reads it again
    /// when it starts below it (`_since = bound − lookBack`), unless the end lies a look-back
    /// or more below the bound, or a pull closed its look-back window (an answer dated at least
    /// two look-backs after its bound, Docs/Sync.md).
    struct PageEnds: Sendable {
        var ends: [(end: Int64, bound: Int64)] = []
        var bound: Int64 = 0
        var closedWindow = false

        /// The page ends a record sharing one may have been skipped at for good.
        func exposed(lookBack: Int64 = 5000) -> Set<Int64> {
            Set(ends.filter { closedWindow || $0.end <= $0.bound - lookBack }.map(\.end))
        }

        mutating func record(_ request: HTTPRequest, _ response: HTTPResponse) {
            guard request.method == "GET", response.status == 200,
                  let etag = response.header("ETag").flatMap({ Int64($0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))) })
            else { return }
            let continuing = request.url.query?.contains("_token=") == true
            let next = response.header("Next-Page")?.isEmpty == false
            if !continuing {
                bound = etag
                if !next, let date = response.header("Date").flatMap(Self.httpDate().date(from:)),
                   Int64(date.timeIntervalSince1970 * 1000) >= etag + 10_000 {
                    closedWindow = true
                }
            }
            guard next, let page = (try? JSONValue(parsing: response.body))?["data"]?.arrayValue,
                  let end = page.compactMap({ $0["last_modified"]?.intValue }).max() else { return }
            ends.append((end, bound))
        }

        /// A parser of HTTP dates (`Date` headers).
        static func httpDate() -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            return formatter
        }
    }

    init(base: any HTTPTransport = URLSessionTransport()) { self.base = base }

    /// Every exchange so far, in the order the answers came.
    var exchanges: [Exchange] { recorded.withLock { $0 } }

    /// The serving node of every answer so far, in order.
    var nodes: [String?] { exchanges.map(\.node) }

    /// Where the pulls so far ended their pages (``PageEnds``).
    var pageEnds: PageEnds { ends.withLock { $0 } }

    /// Forgets what was recorded.
    func reset() {
        recorded.withLock { $0.removeAll() }
        ends.withLock { $0 = PageEnds() }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let sent = Int64(Date().timeIntervalSince1970 * 1000)
        let response = try await base.send(request)
        recorded.withLock { $0.append(Exchange(request: request, status: response.status, node: response.header("X-Kinto-Node"))) }
        ends.withLock { $0.record(request, response) }
        if request.method == "GET" {
            let query = (request.url.query ?? "").removingPercentEncoding ?? ""
            let short = query.split(separator: "&").filter { !$0.hasPrefix("_token=") }.joined(separator: "&")
            let items = ((try? JSONValue(parsing: response.body))?["data"]?.arrayValue ?? []).map { item in
                "\(item["id"]?.stringValue ?? "?")@\(item["last_modified"]?.intValue ?? 0)\(item["deleted"] == .bool(true) ? "†" : "")"
            }
            let token = query.contains("_token=") ? " (next)" : ""
            let line = "\(sent)-\(Int64(Date().timeIntervalSince1970 * 1000)) GET \(short)\(token) → \(response.status) etag \(response.header("ETag") ?? "-") date \(response.header("Date") ?? "-") next \(response.header("Next-Page")?.isEmpty == false) [\(items.joined(separator: " "))]"
            lines.withLock { $0.append(line) }
        }
        return response
    }
}
