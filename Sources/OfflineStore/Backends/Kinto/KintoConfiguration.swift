import Foundation

extension KintoBackend {
    /// Where the Kinto server is and how to talk to it.
    ///
    /// ```swift
    /// var configuration = KintoBackend.Configuration(serverURL: URL(string: "https://kinto.example/v1")!)
    /// configuration.auth = .basic(user: "alice", password: "s3cret")
    /// configuration.bucket = "todo-app"
    /// let backend = KintoBackend(configuration: configuration)
    /// ```
    ///
    /// The description redacts credentials.
    public struct Configuration: Sendable {
        /// The server's API base, ending in the version, e.g. `http://127.0.0.1:8888/v1`.
        public var serverURL: URL
        /// The bucket holding the collections. Default `"offline-store"` (Kinto's
        /// `default` bucket is a plugin that may not be installed).
        public var bucket: String
        /// The credentials sent with every request. Default ``KintoAuth/none``.
        public var auth: KintoAuth
        /// How long one request may take. Default 30 seconds.
        public var timeout: Duration
        /// Records per pulled page (`_limit`). Default 10,000, Kinto's default cap
        /// (`storage_max_fetch_size`; a server with a lower cap pages with `Next-Page`); at
        /// least 1. Each page is held whole in memory while it is parsed and applied (about
        /// 15 MB for 10,000 records of 150 bytes). Kinto's memory backend scans the whole
        /// collection for every page it serves, so small pages multiply the server's work.
        public var pageSize: Int
        /// How far before the stored cursor a pull starts again, to catch records committed
        /// late with an older timestamp. Default 5 seconds. Re-read records carry the
        /// version the engine already has and are skipped by it.
        public var lookBack: Duration
        /// Whether a bucket this backend creates lets every authenticated user write
        /// (`{"permissions":{"write":["system.Authenticated"]}}`), so different users share
        /// it. Default false: only the creator can use it. An existing bucket is not changed.
        public var shareBucketWithAuthenticatedUsers: Bool
        /// Whether a pull first asks `HEAD` for the number of records it will bring
        /// (`Total-Records`, the progress total of ``PullPage/total``). Default false: Kinto
        /// answers list requests without a count, and on its memory backend the `HEAD` costs
        /// about as much as a page, so a pull is bounded by its first answer's `ETag` instead
        /// and progress has no total.
        public var countsRecords: Bool
        /// The clock used for `Backoff` / `Retry-After` deadlines. Default `Date()`.
        public var now: @Sendable () -> Date

        /// Creates a configuration; every parameter but the server has the documented default.
        public init(
            serverURL: URL,
            bucket: String = "offline-store",
            auth: KintoAuth = .none,
            timeout: Duration = .seconds(30),
            pageSize: Int = 10_000,
            lookBack: Duration = .seconds(5),
            shareBucketWithAuthenticatedUsers: Bool = false,
            countsRecords: Bool = false,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.countsRecords = countsRecords
            self.serverURL = serverURL
            self.bucket = bucket
            self.auth = auth
            self.timeout = timeout
            self.pageSize = pageSize
            self.lookBack = lookBack
            self.shareBucketWithAuthenticatedUsers = shareBucketWithAuthenticatedUsers
            self.now = now
        }
    }
}

extension KintoBackend.Configuration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The settings with credentials redacted.
    public var description: String {
        "KintoBackend.Configuration(serverURL: \(KintoBackend.redacted(serverURL)), bucket: \(bucket), "
            + "auth: \(auth), timeout: \(timeout), pageSize: \(pageSize), lookBack: \(lookBack), "
            + "shareBucketWithAuthenticatedUsers: \(shareBucketWithAuthenticatedUsers), countsRecords: \(countsRecords))"
    }

    /// Same as ``description``: credentials redacted.
    public var debugDescription: String { description }

    /// A mirror that shows only the redacted ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["configuration": description], displayStyle: .struct) }
}

extension KintoBackend {
    /// The URL without any user or password embedded in it.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<url>" }
        if components.user != nil || components.password != nil {
            components.user = nil
            components.password = nil
            return (components.string ?? "<url>") + " (credentials redacted)"
        }
        return url.absoluteString
    }

    /// The number of milliseconds in a duration, rounded down, never negative, at most
    /// `Int64.max` (a huge `lookBack` or `timeout` must not trap).
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (ms, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? 0 : .max }
        let (total, overflow2) = ms.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return overflow2 ? .max : max(0, total)
    }
}
