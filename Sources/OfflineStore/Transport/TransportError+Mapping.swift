extension OfflineStoreError {
    /// The engine's reading of a request that got no HTTP answer; every backend maps through here.
    ///
    /// No connection, or a failure before anything was sent (TLS, bad URL), is `offline`: the
    /// server did not see the request. A timeout or a broken connection is `timeout`: the
    /// server may have applied it, so the entry is resent as it was. A plain-HTTP request
    /// that App Transport Security blocked is `configuration`: nothing was sent, and only a
    /// change to the app (its server URL or its Info.plist) lets it through.
    public init(transport error: TransportError, while action: String) {
        switch error.kind {
        case .cannotConnect:
            self.init(.offline, "\(action): cannot connect to the server", underlying: error.description, underlyingError: error)
        case .timedOut:
            self.init(.timeout, "\(action): no answer in time; the server may have applied the request",
                      underlying: error.description, underlyingError: error)
        case .connectionLost:
            self.init(.timeout, "\(action): the connection broke; the server may have applied the request",
                      underlying: error.description, underlyingError: error)
        case .blockedByAppTransportSecurity:
            self.init(.configuration,
                      "\(action): App Transport Security blocked a plain-HTTP connection; use an https:// server URL, "
                      + "or allow the host in the app's Info.plist under NSAppTransportSecurity: NSExceptionDomains > the host > "
                      + "NSExceptionAllowsInsecureHTTPLoads for a domain name, NSAllowsLocalNetworking for an IP address "
                      + "or a .local name", underlying: error.description, underlyingError: error)
        case .other:
            self.init(.offline, "\(action): the request could not be sent", underlying: error.description, underlyingError: error)
        }
    }
}
