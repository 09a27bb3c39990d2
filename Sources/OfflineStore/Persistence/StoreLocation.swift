import Foundation
import GRDB

/// Where a store's data lives, and how its database is opened there.
enum StoreLocation {
    /// An SQLite file (WAL, one writer and concurrent readers), its blobs next to it.
    case file(String)
    /// One in-memory SQLite database; blob files in a temporary directory.
    case memory(blobDirectory: URL)

    /// A new in-memory location, its blob directory unique to it (created on first use).
    static func inMemory() -> StoreLocation {
        .memory(blobDirectory: FileManager.default.temporaryDirectory
            .appendingPathComponent("OfflineStore-\(UUID().uuidString.lowercased()).blobs", isDirectory: true))
    }

    /// The file's path, or ":memory:".
    var path: String {
        switch self {
        case .file(let path): path
        case .memory: ":memory:"
        }
    }

    /// Whether nothing is kept after the store goes.
    var isInMemory: Bool {
        if case .memory = self { return true }
        return false
    }

    /// Where the store's blob files live.
    var blobDirectory: URL {
        switch self {
        case .file(let path): URL(fileURLWithPath: path + ".blobs", isDirectory: true)
        case .memory(let directory): directory
        }
    }

    /// Opens the database with the store's settings: a `DatabasePool` on the file (created
    /// with mode 0600 when missing), a `DatabaseQueue` in memory. Every connection runs
    /// ``ObjectStore/Configuration/prepareDatabase`` first.
    ///
    /// - Throws: GRDB's errors; the caller maps them.
    func open(_ configuration: ObjectStore.Configuration) throws -> any DatabaseWriter {
        var config = GRDB.Configuration()
        config.busyMode = .timeout(configuration.busyTimeout.timeInterval)
        config.label = "OfflineStore"
        config.foreignKeysEnabled = false
        if let prepare = configuration.prepareDatabase { config.prepareDatabase(prepare) }
        switch self {
        case .file(let path):
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            return try DatabasePool(path: path, configuration: config)
        case .memory:
            return try DatabaseQueue(configuration: config)
        }
    }

    /// Gives the store file, its `-wal` and `-shm` files and its blob directory the
    /// configured data protection class (iOS, tvOS, watchOS, visionOS; nothing elsewhere).
    /// Runs after the open, when SQLite has created the companion files; the blob directory
    /// is created here so that the files later written into it take its class.
    ///
    /// - Throws: Foundation's error when a file's protection cannot be set.
    func protectFiles(_ configuration: ObjectStore.Configuration) throws {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        guard case .file(let path) = self, let protection = configuration.fileProtection else { return }
        let files = FileManager.default
        if !files.fileExists(atPath: blobDirectory.path) {
            try files.createDirectory(at: blobDirectory, withIntermediateDirectories: false,
                                      attributes: [.posixPermissions: 0o700])
        }
        for item in [path, path + "-wal", path + "-shm", blobDirectory.path] where files.fileExists(atPath: item) {
            try files.setAttributes([.protectionKey: protection.foundationType], ofItemAtPath: item)
        }
        #endif
    }
}

#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
extension ObjectStore.FileProtection {
    /// Foundation's name for the class.
    var foundationType: FileProtectionType {
        switch self {
        case .complete: .complete
        case .completeUnlessOpen: .completeUnlessOpen
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        case .none: .none
        }
    }
}
#endif
