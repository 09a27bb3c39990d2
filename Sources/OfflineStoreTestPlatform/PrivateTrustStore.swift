#if os(macOS) || os(Linux)
import Foundation

/// Running one child process whose TLS stack trusts a test certificate authority, with
/// certificate verification left on and nothing changed for any other process.
///
/// Linux: swift-corelibs-foundation's `URLSession` hands TLS to libcurl, which verifies
/// against the CA bundle compiled into it (`/etc/ssl/certs/ca-certificates.crt` on Debian;
/// corelibs falls back to a list of known paths when libcurl has none). Neither offers a
/// per-session setting, and corelibs reads its `URLSessionCertificateAuthorityInfoFile`
/// variable on Android only; OpenSSL's `SSL_CERT_FILE` is not consulted once a bundle is
/// set, and its configuration file cannot add trust anchors to libcurl's contexts. So the
/// child runs in a private user and mount namespace (`unshare --user --map-root-user
/// --mount`, util-linux) where the given bundle is bind-mounted over those files: only
/// that process tree sees it.
///
/// Darwin: URLSession verifies against the keychain's anchors, and giving one process a
/// private anchor needs trust settings that a person confirms: unsupported (the call throws).
package enum PrivateTrustStore {
    /// The CA bundle files libcurl or corelibs may read, in corelibs' order.
    static let bundlePaths = [
        "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/usr/share/ssl/certs/ca-bundle.crt",
        "/usr/local/share/certs/ca-root-nss.crt", "/etc/ssl/cert.pem",
    ]

    /// Why a child cannot be given a private trust store here.
    package struct Unsupported: Error, CustomStringConvertible {
        package let description: String
    }

    /// The command line that runs `commandLine` (a program path and its arguments) with
    /// `bundle` (PEM certificates) as the only CA bundle its TLS stack reads; its first
    /// element is an absolute path.
    ///
    /// - Throws: ``Unsupported`` on Darwin, or on a Linux machine that refuses unprivileged
    ///   user namespaces (the message says which setting to change).
    package static func commandLine(trusting bundle: String, running commandLine: [String]) throws -> [String] {
        #if os(Linux)
        let targets = bundlePaths.filter { FileManager.default.fileExists(atPath: $0) }
        guard !targets.isEmpty else {
            throw Unsupported(description: "no CA bundle file at any of \(bundlePaths): install Debian's ca-certificates")
        }
        guard let program = ["/usr/bin/unshare", "/bin/unshare"].first(where: FileManager.default.isExecutableFile) else {
            throw Unsupported(description: "no unshare(1): install Debian's util-linux")
        }
        let unshare = [program, "--user", "--map-root-user", "--mount"]
        let probe = try Subprocess(executable: program, arguments: Array(unshare.dropFirst()) + ["true"],
                                   standardOutput: .discard, standardError: .discard)
        guard probe.waitForExit() == 0 else {
            throw Unsupported(description: "`unshare --user --map-root-user --mount` is refused on this machine; "
                + "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, "
                + "kernel.apparmor_restrict_unprivileged_userns=0)")
        }
        let mounts = targets.map { "mount --bind \"$1\" '\($0)' || exit 97" }.joined(separator: "; ")
        return unshare + ["/bin/sh", "-c", mounts + "; shift; exec \"$@\"", "sh", bundle] + commandLine
        #else
        throw Unsupported(description: "a private trust store for one process needs a Linux mount namespace; "
            + "on Darwin the keychain's trust settings decide, and changing them needs a person")
        #endif
    }
}
#endif
