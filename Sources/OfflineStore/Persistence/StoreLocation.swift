import Foundation
import GRDB
import OfflineStorePlatform

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
    /// Two platform settings: GRDB's suspension handling is on
    /// (`observesSuspensionNotifications`), so ``ObjectStore/suspend()`` — or an app that
    /// posts GRDB's `Database.suspendNotification` — makes the connections release their
    /// SQLite locks before iOS suspends the app; and where `fsync` does not reach the disk
    /// (Apple platforms) checkpoints use `F_FULLFSYNC` (`PRAGMA checkpoint_fullfsync`), so
    /// a power loss cannot corrupt the file there either.
    ///
    /// - Throws: GRDB's errors; the caller maps them.
    func open(_ configuration: ObjectStore.Configuration) throws -> any DatabaseWriter {
        var config = GRDB.Configuration()
        config.busyMode = .timeout(configuration.busyTimeout.timeInterval)
        config.label = "OfflineStore"
        config.foreignKeysEnabled = false
        config.observesSuspensionNotifications = true
        if FileSync.sqliteNeedsFullFSync {
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA checkpoint_fullfsync = ON") }
        }
        if let prepare = configuration.prepareDatabase { config.prepareDatabase(prepare) }
        // Readers opened with the store stay open (KeptOpenFiles): GRDB closes the others to free memory.
        config.persistentReadOnlyConnections = keptOpen(configuration).readers > 0
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

    /// What the store opens with it because of its files' protection class.
    func keptOpen(_ configuration: ObjectStore.Configuration) -> KeptOpenFiles {
        KeptOpenFiles(protection: configuration.fileProtection, isInMemory: isInMemory,
                      maximumReaderCount: GRDB.Configuration().maximumReaderCount)
    }

    /// Opens `count` reader connections of the pool at once (each holds its connection until
    /// all are open, so the pool makes `count` of them) and reads through each, which opens
    /// the `-wal` and `-shm` files there too.
    ///
    /// - Throws: GRDB's error when a reader cannot be opened.
    static func openReaders(of writer: any DatabaseWriter, count: Int) throws {
        guard count > 0, let pool = writer as? DatabasePool else { return }
        let opened = DispatchSemaphore(value: 0)
        let allOpen = DispatchSemaphore(value: 0)
        let failures = Locked<[any Error]>([])
        for _ in 0..<count {
            pool.asyncRead { result in
                do { _ = try Int.fetchOne(try result.get(), sql: "SELECT count(*) FROM sqlite_master") } catch {
                    failures.withLock { $0.append(error) }
                }
                opened.signal()
                allOpen.wait()
            }
        }
        for _ in 0..<count { opened.wait() }
        for _ in 0..<count { allOpen.signal() }
        if let failure = failures.withLock({ $0.first }) { throw failure }
    }

    /// Gives the store file, its `-wal` and `-shm` files, its blob directory and the blob
    /// files already in it the configured data protection class (iOS, tvOS, watchOS,
    /// visionOS; nothing elsewhere: ``DataProtection``). Runs after every open, when SQLite
    /// has (re)created the companion files; the blob directory is created here so that the
    /// files later written into it take its class. Files the store makes later take the
    /// class from these: the sync lock file from the store file, blob files and upload
    /// bodies from the blob directory or the blob they carry.
    ///
    /// - Throws: Foundation's error when a file's protection cannot be set.
    func protectFiles(_ configuration: ObjectStore.Configuration) throws {
        guard DataProtection.isSupported, case .file(let path) = self,
              let protection = configuration.fileProtection else { return }
        let files = FileManager.default
        if !files.fileExists(atPath: blobDirectory.path) {
            try files.createDirectory(at: blobDirectory, withIntermediateDirectories: false,
                                      attributes: [.posixPermissions: 0o700])
        }
        let blobs = ((try? files.contentsOfDirectory(atPath: blobDirectory.path)) ?? [])
            .map { blobDirectory.appendingPathComponent($0).path }
        for item in [path, path + "-wal", path + "-shm", path + ".sync-lock", blobDirectory.path] + blobs
        where files.fileExists(atPath: item) {
            try DataProtection.apply(Self.level(of: protection), to: item)
        }
    }

    /// The platform layer's name for a protection class.
    private static func level(of protection: ObjectStore.FileProtection) -> DataProtection.Level {
        switch protection {
        case .complete: .complete
        case .completeUnlessOpen: .completeUnlessOpen
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        case .none: .none
        }
    }
}
