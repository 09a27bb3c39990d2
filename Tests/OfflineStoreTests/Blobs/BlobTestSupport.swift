import Foundation
import Testing
@testable import OfflineStore

/// Helpers for the blob tests: random bytes, an independent SHA-256, files in a store's blob directory.
enum BlobTestSupport {
    /// Deterministic pseudo-random bytes (not compressible, not all equal).
    static func bytes(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        var data = Data(capacity: count)
        while data.count < count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            withUnsafeBytes(of: state.bigEndian) { data.append(contentsOf: $0.prefix(count - data.count)) }
        }
        return data
    }

    /// The SHA-256 of a file computed apart from the store's own (``ReferenceSHA256``).
    static func independentSHA256(_ file: URL) throws -> String {
        try ReferenceSHA256.hex(ofFile: file)
    }

    /// The files in a store's blob directory.
    static func files(of store: ObjectStore) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: store.path + ".blobs")) ?? []
    }

    /// The POSIX permissions of a path.
    static func permissions(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue
    }
}
