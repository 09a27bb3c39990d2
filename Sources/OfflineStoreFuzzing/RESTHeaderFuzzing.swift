import Foundation
import OfflineStore

/// `rest-headers`: one answer (ScriptedAnswers) into the readers of its head and error body:
/// `Link` next links, `ETag`, `Retry-After` and Kinto's `Backoff`, `Location` redirects, the
/// `Date` header, an HTML error page's title.
enum RESTHeaderFuzzing {
    static let target = FuzzTarget(
        name: "rest-headers",
        summary: "an answer (ScriptedAnswers) → RESTReply's readers, Kinto's Backoff and Date: a next link is a <…> target marked "
            + "rel=next; waits within 0…1 day; an HTML title is short, trimmed, one line; redirects are configuration errors; "
            + "Date as a strict formatter reads it",
        check: check)

    static let pageURL = URL(string: "http://127.0.0.1:3000/customers.json?per_page=2")!

    static func check(_ input: [UInt8]) throws(PropertyViolation) {
        guard let answer = ScriptedAnswers.parse(input).first else { return }
        let reply = RESTReply(answer)
        if let link = reply.nextLink {
            let header = answer.header("Link") ?? ""
            try require(header.contains("<\(link)>") && !link.contains(">"), "a next link is a <…> target of the Link header",
                        "\(link) from \(shown(header))")
            try require(header.lowercased().contains("next"), "a next link is marked next", shown(header))
        }
        _ = reply.etag
        for wait in [reply.retryAfter, KintoBackoff.duration(answer.header("Backoff"))].compactMap({ $0 }) {
            try require(wait >= .zero && wait <= .seconds(KintoBackoff.maximumSeconds), "a server's wait is within 0…1 day", "\(wait)")
        }
        if let title = reply.htmlTitle {
            try require(!title.isEmpty && title.count <= 200, "an HTML title has 1…200 characters", "\(title.count)")
            try require(title.trimmingCharacters(in: .whitespacesAndNewlines) == title && !title.contains(where: \.isNewline),
                        "an HTML title is trimmed and on one line", shown(title))
        }
        let redirect = reply.redirectError("GET", pageURL, what: "pulling")
        if (300..<400).contains(answer.status), answer.status != 304 {
            try require(redirect?.code == .configuration, "a redirect is a configuration error", shown(redirect as Any))
        } else {
            try require(redirect == nil, "only a 3xx (not 304) is a redirect", "\(answer.status)")
        }
        let error = reply.error("pulling")
        let expected: OfflineStoreError.Code = answer.status == 401 ? .unauthorized : answer.status == 403 ? .forbidden : .server
        try require(error.code == expected, "an error status maps to its code", "\(answer.status) → \(error.code)")
        try require(reply.badResponse("pulling").code == .badResponse, "a bad answer is badResponse")
        if let date = answer.header("Date") { try checkDate(date) }
    }

    /// Where a strict IMF-fixdate formatter reads the date, `HTTPDate` reads the same instant.
    static func checkDate(_ text: String) throws(PropertyViolation) {
        guard let ours = HTTPDate.milliseconds(text) else { return }
        try require(ours >= 0, "a Date is not before 1970", "\(ours)")
        guard let reference = formatter.withLock({ $0.date(from: text) }) else { return }
        let expected = Int64((reference.timeIntervalSince1970 * 1000).rounded())
        try require(ours == expected, "HTTPDate reads the instant a strict formatter reads", "\(text): \(ours) instead of \(expected)")
    }

    /// IMF-fixdate in English, UTC, not lenient.
    static let formatter: Locked<DateFormatter> = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        formatter.isLenient = false
        return Locked(formatter)
    }()
}
