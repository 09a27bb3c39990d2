import Foundation
import OfflineStorePlatform

/// The directory of blob files next to a store (`<store file>.blobs/`, or a temporary
/// directory for an in-memory store; mode 0700; files
/// 0600, named by random ids, never by the app's names), and the files being written.
///
/// A file is registered as *in progress* before it is created and until the transaction
/// that references it committed (or it was removed), so ``ObjectStore/sweepBlobs()`` never
/// removes a file that is about to be referenced.
struct BlobFiles: Sendable {
    /// The directory.
    let directory: URL

    /// Names of files being written by any store in this process (names are random UUIDs).
    static let inProgress = Locked<Set<String>>([])

    /// How many bytes are copied and hashed at a time.
    static let chunkSize = 1 << 20

    /// The blob files in `directory` (``ObjectStore/blobDirectory``).
    init(directory: URL) {
        self.directory = directory
    }

    /// The URL of a blob file.
    func url(_ name: String) -> URL { directory.appendingPathComponent(name, isDirectory: false) }

    /// Creates the directory (0700) if missing.
    ///
    /// - Throws: ``OfflineStoreError/Code/storage``.
    func ensureDirectory() throws {
        do {
            if !FileManager.default.fileExists(atPath: directory.path) {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                        attributes: [.posixPermissions: 0o700])
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        } catch {
            throw OfflineStoreError(.storage, "cannot create the blob directory next to the store", underlying: String(describing: error))
        }
    }

    /// Reserves a new file name (in progress until ``release(_:)``).
    func reserve() -> String {
        let name = UUID().uuidString.lowercased()
        _ = Self.inProgress.withLock { $0.insert(name) }
        return name
    }

    /// Ends the in-progress state of a name.
    func release(_ name: String) {
        _ = Self.inProgress.withLock { $0.remove(name) }
    }

    /// Copies `source` into the blob file `name` (0600) in pieces, hashing as it goes, and
    /// syncs it to stable storage (``FileSync``); returns size and SHA-256.
    ///
    /// - Throws: ``OfflineStoreError/Code/notFound`` when the source cannot be opened,
    ///   ``OfflineStoreError/Code/storage`` when the copy fails (the partial file is removed).
    func copy(from source: URL, to name: String) throws -> (size: Int64, sha256: String) {
        var isDirectory: ObjCBool = false
        guard source.isFileURL, FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let input = FileHandle(forReadingAtPath: source.path) else {
            throw OfflineStoreError(.notFound, "the file to attach does not exist or cannot be read: \(source.lastPathComponent)")
        }
        defer { try? input.close() }
        return try write(name) { out in
            var hash = SHA256()
            var size: Int64 = 0
            while let chunk = try input.read(upToCount: Self.chunkSize), !chunk.isEmpty {
                hash.update(chunk)
                size += Int64(chunk.count)
                try out.write(contentsOf: chunk)
            }
            return (size, hash.hexDigest())
        }
    }

    /// Writes bytes into the blob file `name` (0600); returns size and SHA-256.
    ///
    /// - Throws: ``OfflineStoreError/Code/storage``.
    func write(_ data: Data, to name: String) throws -> (size: Int64, sha256: String) {
        try write(name) { out in
            try out.write(contentsOf: data)
            return (Int64(data.count), SHA256.hex(of: data))
        }
    }

    /// Size and SHA-256 of a file, read in pieces.
    ///
    /// - Throws: ``OfflineStoreError/Code/storage`` when it cannot be read.
    func measure(_ file: URL) throws -> (size: Int64, sha256: String) {
        guard let input = FileHandle(forReadingAtPath: file.path) else {
            throw OfflineStoreError(.storage, "cannot read the blob file \(file.lastPathComponent)")
        }
        defer { try? input.close() }
        var hash = SHA256()
        var size: Int64 = 0
        do {
            while let chunk = try input.read(upToCount: Self.chunkSize), !chunk.isEmpty {
                hash.update(chunk)
                size += Int64(chunk.count)
            }
        } catch {
            throw OfflineStoreError(.storage, "cannot read the blob file", underlying: String(describing: error))
        }
        return (size, hash.hexDigest())
    }

    /// Makes a file private to the user (0600) and gives it the directory's data protection
    /// class (a file moved in, such as a download, keeps its own class otherwise).
    func protect(_ file: URL) throws {
        do {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            try DataProtection.copy(from: directory.path, to: file.path)
        } catch {
            throw OfflineStoreError(.storage, "cannot set the blob file's permissions", underlying: String(describing: error))
        }
    }

    /// Removes a blob file if it exists.
    func remove(_ name: String) {
        try? FileManager.default.removeItem(at: url(name))
    }

    /// The names of the files in the directory (none when it does not exist).
    func names() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    }

    private func write<T>(_ name: String, _ body: (FileHandle) throws -> T) throws -> T {
        try ensureDirectory()
        let file = url(name)
        do {
            guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw OfflineStoreError(.storage, "cannot create the blob file")
            }
            try protect(file)
            let out = try FileHandle(forWritingTo: file)
            defer { try? out.close() }
            let result = try body(out)
            try FileSync.toStableStorage(out.fileDescriptor)
            return result
        } catch {
            try? FileManager.default.removeItem(at: file)
            if let error = error as? OfflineStoreError { throw error }
            throw OfflineStoreError(.storage, "cannot write the blob file", underlying: String(describing: error))
        }
    }
}
