import Foundation

/// The ``Backend`` for a Kinto server (records API 1.x, measured on Kinto 26.5).
///
/// Objects of a collection are Kinto records in `{bucket}/collections/{collection}`.
/// Creates use `If-None-Match: *`, updates and deletes `If-Match: "<version>"`, where a
/// version is the record's `last_modified`; several operations go in one `/batch`.
/// Pulls read a bounded, ascending change feed (see ``pull(_:delivering:)``).
///
/// ```swift
/// let backend = KintoBackend(configuration: .init(
///     serverURL: URL(string: "http://127.0.0.1:8888/v1")!,
///     auth: .basic(user: "alice", password: "s3cret")))
/// try await backend.prepare(collection: "todos")
/// ```
public final class KintoBackend: Backend, Sendable {
    /// The settings this backend was created with.
    public let configuration: Configuration
    let transport: any HTTPTransport
    let paths: KintoPaths
    let state = Locked(State())

    /// What the backend learned from the server.
    struct State {
        var capabilities: BackendCapabilities?
        var bucketReady = false
        var preparedCollections: Set<String> = []
        var backoff = KintoBackoff()
    }

    /// Creates a backend; nothing is sent until the first call.
    public init(configuration: Configuration, transport: any HTTPTransport = URLSessionTransport()) {
        self.configuration = configuration
        self.transport = transport
        self.paths = KintoPaths(serverURL: configuration.serverURL, bucket: configuration.bucket)
    }

    /// Checks an id against Kinto's rule (``validate(id:)``), the same in every collection.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidID`` naming the rule.
    public func validate(id: String, in collection: String) throws {
        try validate(id: id)
    }

    /// Checks an id against Kinto's rule `^[a-zA-Z0-9][a-zA-Z0-9_-]*$`.
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidID`` naming the rule.
    public func validate(id: String) throws {
        guard KintoPaths.isValidID(id) else {
            let shown = id.count > 64 ? String(id.prefix(64)) + "…" : id
            throw OfflineStoreError(.invalidID, "id \"\(shown)\" is not a valid Kinto record id: it must start with "
                + "an ASCII letter or digit followed by letters, digits, '_' or '-' (^[a-zA-Z0-9][a-zA-Z0-9_-]*$)")
        }
    }

    /// The server's batch limit (`settings.batch_max_requests`, 25 when absent), asked once.
    ///
    /// - Throws: ``OfflineStoreError`` (`offline`, `timeout`, `unauthorized`, `server`, `badResponse`).
    public func capabilities() async throws -> BackendCapabilities {
        if let known = state.withLock({ $0.capabilities }) { return known }
        let reply = try await send("GET", paths.root, what: "reading the server's capabilities")
        guard reply.isSuccess else { throw reply.error("reading the server's capabilities") }
        return try rememberCapabilities(reply)
    }

    /// Creates the bucket and the collection unless they exist (`PUT` with `If-None-Match: *`;
    /// 412 means it exists). See ``prepareAccess(collection:)``.
    ///
    /// - Throws: ``OfflineStoreError/Code/configuration`` for a name Kinto refuses,
    ///   `unauthorized` (401), `forbidden` (403: neither creatable nor readable), `server`, `offline`, `timeout`.
    public func prepare(collection: String) async throws {
        _ = try await prepareAccess(collection: collection)
    }

    /// Creates the bucket and the collection only when missing and creatable, and finds out
    /// whether the user may write the collection (`KintoAccessRule`): `PUT` with
    /// `If-None-Match: *` answers 201 (created), 412 (exists) or 403 (not creatable); then
    /// a `GET` of the collection (and, when it shows no permissions, of the bucket) tells a
    /// writable collection from a read-only one and from one the user cannot use. A bucket the user may not
    /// create or write (another user's) is fine: the collection decides. A writable
    /// collection is remembered, so later calls send nothing; a read-only one is asked
    /// again each time, so that access granted later is seen by the next sync.
    ///
    /// - Throws: as ``prepare(collection:)``.
    public func prepareAccess(collection: String) async throws -> CollectionAccess {
        try checkName(collection)
        if state.withLock({ $0.preparedCollections.contains(collection) }) { return .readWrite }
        try checkBackoff()
        if !state.withLock({ $0.bucketReady }) {
            var body: JSONValue?  // never `cond ? [...] : nil`, which would make JSON `null`
            if configuration.shareBucketWithAuthenticatedUsers {
                body = ["permissions": ["write": ["system.Authenticated"]]]
            }
            let what = "creating bucket \"\(configuration.bucket)\""
            let reply = try await send("PUT", paths.url(paths.bucketPath), headers: [("If-None-Match", "*")],
                                       body: body, what: what)
            guard KintoAccessRule.bucketUsable(status: reply.status) else { throw reply.error(what) }
            state.withLock { $0.bucketReady = true }
        }
        let what = "creating collection \"\(collection)\""
        let reply = try await send("PUT", paths.url(paths.collectionPath(collection)),
                                   headers: [("If-None-Match", "*")], what: what)
        var readReply: KintoReply?
        var bucketShows: Bool?
        if KintoAccessRule.needsRead(createStatus: reply.status) {
            let read = try await readObject(paths.collectionPath(collection), what: "reading collection \"\(collection)\"")
            readReply = read
            if read.isSuccess, !Self.showsPermissions(read) {
                bucketShows = Self.showsPermissions(try await readObject(paths.bucketPath,
                                                                         what: "reading bucket \"\(configuration.bucket)\""))
            }
        }
        switch KintoAccessRule.access(createStatus: reply.status, readStatus: readReply?.status,
                                      showsPermissions: readReply.map(Self.showsPermissions) ?? false,
                                      bucketShowsPermissions: bucketShows) {
        case .access(let access):
            if access == .readWrite { _ = state.withLock { $0.preparedCollections.insert(collection) } }
            return access
        case .refused:
            throw OfflineStoreError(.forbidden, "collection \"\(collection)\" of bucket \"\(configuration.bucket)\": the user may "
                + "neither create nor read it (HTTP 403)", status: 403, body: readReply?.text ?? reply.text)
        case .failed:
            throw (readReply ?? reply).error(readReply == nil ? what : "reading collection \"\(collection)\"")
        }
    }

    /// A `GET` of a bucket or collection. A success whose body is not Kinto's `{"data": {…}}`
    /// (an HTML page from a proxy, a cut answer) is a `badResponse`: read as an object without
    /// permissions, it would make a writable collection read-only.
    private func readObject(_ path: String, what: String) async throws -> KintoReply {
        let reply = try await send("GET", paths.url(path), what: what)
        guard !reply.isSuccess || reply.dataObject != nil else { throw reply.badResponse(what) }
        return reply
    }

    /// Whether a successful `GET` of a bucket or collection shows its permissions (Kinto shows
    /// them only to a user who may write the object).
    static func showsPermissions(_ reply: KintoReply) -> Bool {
        guard reply.isSuccess, let permissions = reply.json?["permissions"]?.objectValue else { return false }
        return permissions.values.contains { !($0.arrayValue ?? []).isEmpty }
    }

    /// Asks the server root; with credentials configured, also checks that the server
    /// recognised them (Kinto's root answers 200 to anyone but names only known users).
    ///
    /// - Throws: `offline` (no connection), `unauthorized`, `timeout`, `server`.
    public func ping() async throws {
        let reply = try await send("GET", paths.root, what: "pinging the server")
        guard reply.isSuccess else { throw reply.error("pinging the server") }
        _ = try rememberCapabilities(reply)
        if configuration.auth.isAuthenticated, reply.json?["user"]?.objectValue == nil {
            throw OfflineStoreError(.unauthorized, "pinging the server: the server did not accept the credentials",
                                    status: reply.status)
        }
    }

    /// Forgets that a collection (and its bucket) exist, so the next ``prepare(collection:)`` asks again.
    func forgetPrepared(_ collection: String) {
        state.withLock {
            $0.preparedCollections.remove(collection)
            $0.bucketReady = false
        }
    }

    private func rememberCapabilities(_ reply: KintoReply) throws -> BackendCapabilities {
        guard let root = reply.json?.objectValue else { throw reply.badResponse("reading the server's capabilities") }
        let limit = root["settings"]?["batch_max_requests"]?.intValue.flatMap { Int(exactly: $0) } ?? 25
        let capabilities = BackendCapabilities(maxBatchSize: limit)
        state.withLock { $0.capabilities = capabilities }
        return capabilities
    }
}

extension KintoBackend {
    /// Throws when the server asked us to back off and the deadline has not passed.
    func checkBackoff() throws {
        let now = configuration.now()
        if let remaining = state.withLock({ $0.backoff.remaining(now: now) }) {
            throw OfflineStoreError(.server, "server asked to back off", retryAfter: remaining)
        }
    }

    /// Throws when a collection or the bucket has a name Kinto refuses.
    func checkName(_ collection: String) throws {
        for (kind, name) in [("bucket", configuration.bucket), ("collection", collection)]
        where !KintoPaths.isValidID(name) {
            throw OfflineStoreError(.configuration, "\(kind) name \"\(name)\" is not valid on Kinto: it must "
                + "start with an ASCII letter or digit followed by letters, digits, '_' or '-'")
        }
    }

    /// Sends one request with credentials and returns the answer, whatever its status;
    /// remembers `Backoff` (any answer) and `Retry-After` (503).
    ///
    /// - Throws: `offline` (no connection), `timeout` (no answer in time, or the connection
    ///   broke: the server may have applied it), `CancellationError`.
    func send(_ method: String, _ url: URL, headers extra: [(String, String)] = [], body: JSONValue? = nil,
              parsingBody: Bool = true, what: String) async throws -> KintoReply {
        var response = try await sendOnce(method, url, headers: extra, body: body, what: what)
        // A 401 gets one refresh of the credentials and one more try (AuthHeaderProvider).
        if response.status == 401, try await refreshCredentials() {
            response = try await sendOnce(method, url, headers: extra, body: body, what: what)
        }
        let reply = KintoReply(response, parsingBody: parsingBody)
        noteBackoff(status: reply.status, headers: reply.headers)
        return reply
    }

    /// Remembers `Backoff` (any answer) and `Retry-After` (503) of an answer.
    func noteBackoff(status: Int, headers: [String: String]) {
        let now = configuration.now()
        let backoff = KintoBackoff.seconds(headers["backoff"])
        let retryAfter = status == 503 ? KintoBackoff.seconds(headers["retry-after"]) : nil
        if backoff != nil || retryAfter != nil {
            state.withLock {
                if let backoff { $0.backoff.record(seconds: backoff, now: now) }
                if let retryAfter { $0.backoff.record(seconds: retryAfter, now: now) }
            }
        }
    }

    /// One request with the current credentials; the answer whatever its status.
    private func sendOnce(_ method: String, _ url: URL, headers extra: [(String, String)], body: JSONValue?,
                          what: String) async throws -> HTTPResponse {
        try await exchange(method, url, headers: extra, body: body, what: what) { [transport] in try await transport.send($0) }
    }

    /// Builds the request (credentials, JSON headers) and hands it to `call`, mapping what
    /// the transport throws to ``OfflineStoreError``.
    func exchange<Answer>(_ method: String, _ url: URL, headers extra: [(String, String)], body: JSONValue?, what: String,
                          _ call: (HTTPRequest) async throws -> Answer) async throws -> Answer {
        var headers: [(String, String)] = [("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        headers += extra
        if let auth = try await authHeader() { headers.append(auth) }
        let request = HTTPRequest(method: method, url: url, headers: headers,
                                  body: body.map { Data($0.serialized().utf8) }, timeout: configuration.timeout)
        return try await mappingTransportFailures(while: what) { try await call(request) }
    }

    func authHeader() async throws -> (String, String)? {
        do {
            return try await configuration.auth.headerField()
        } catch let error as OfflineStoreError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw OfflineStoreError(.unauthorized, "the authentication header provider failed",
                                    underlying: String(describing: error))
        }
    }

}

extension KintoBackend: CustomStringConvertible {
    /// The backend and its configuration, credentials redacted.
    public var description: String { "KintoBackend(\(configuration))" }
}
