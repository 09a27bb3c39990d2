import Foundation

extension URL {
    /// Whether two URLs share scheme, host and port (default ports filled in): the test for
    /// sending credentials to a URL a server handed us.
    func hasSameOrigin(as other: URL) -> Bool {
        scheme?.lowercased() == other.scheme?.lowercased()
            && host?.lowercased() == other.host?.lowercased()
            && (port ?? Self.defaultPort(scheme)) == (other.port ?? Self.defaultPort(other.scheme))
    }

    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
