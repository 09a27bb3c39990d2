import Foundation
import OfflineStorePlatform

/// An advisory exclusive `flock(2)` on one file, shared by every process that opens it
/// (through ``FileLocking``, the platform layer).
///
/// The file is opened (created 0600, with the store file's data protection class) on first
/// use, or when the store opens under `.completeUnlessOpen` (``KeptOpenFiles``), and kept
/// open for the store's life; the lock belongs to that open file description,
/// so the kernel drops it when the process ends, however it ends. Waiting polls with a
/// short, growing pause (1–25 ms), so a waiting task can be cancelled and no thread is
/// blocked. While it holds the lock, the holder writes its process id into the file, so a
/// tool (or a test) can tell which process syncs: Darwin has no other way to ask.
///
/// On Apple platforms this works between an app and its extensions on a store in a shared
/// app-group container; iOS terminates a suspended app that holds it (0xdead10cc), which
/// ``ObjectStore/suspend()`` prevents by releasing it first.
final class SyncLockFile: @unchecked Sendable {
    // @unchecked: `descriptor` is written once under `openLock` and only read afterwards;
    // flock itself is thread-safe. Callers serialise lock/unlock through SyncLock's AsyncLock.
    let path: String
    /// The store file whose data protection class the lock file takes.
    let storePath: String
    private var descriptor: Int32 = -1
    private let openLock = NSLock()

    init(storePath: String) {
        self.storePath = storePath
        self.path = storePath + ".sync-lock"
    }

    deinit { if descriptor >= 0 { FileLocking.close(descriptor) } }

    /// Takes the lock, waiting for its holder in another process, as long as `proceed`
    /// says so (asked before each attempt).
    ///
    /// - Returns: true when taken; false when `proceed` said no before it could be.
    /// - Throws: ``OfflineStoreError/Code/storage`` when the file cannot be opened or locked;
    ///   `CancellationError` when the task is cancelled while waiting.
    func lock(while proceed: () -> Bool = { true }) async throws -> Bool {
        let fd = try openedDescriptor()
        var pause: UInt64 = 1_000_000
        while proceed() {
            do {
                if try FileLocking.tryLockExclusive(fd, path: path) {
                    FileLocking.noteHolder(fd)
                    return true
                }
            } catch let error as SystemError {
                throw OfflineStoreError(.storage, "cannot lock \(path): \(error.reason)")
            }
            try await Task.sleep(nanoseconds: pause)
            pause = min(pause * 2, 25_000_000)
        }
        return false
    }

    /// Opens the file now rather than on first use (``KeptOpenFiles``); it stays open.
    ///
    /// - Throws: ``OfflineStoreError/Code/storage`` when it cannot be opened.
    func open() throws { _ = try openedDescriptor() }

    /// Releases the lock.
    func unlock() {
        openLock.lock()
        let fd = descriptor
        openLock.unlock()
        guard fd >= 0 else { return }
        FileLocking.clearHolderNote(fd)
        FileLocking.unlock(fd)
    }

    /// Whether some descriptor (of any process, this one included) holds the lock now.
    var isHeldByAnyone: Bool { FileLocking.isLocked(path) }

    private func openedDescriptor() throws -> Int32 {
        openLock.lock()
        defer { openLock.unlock() }
        if descriptor >= 0 { return descriptor }
        let fd: Int32
        do { fd = try FileLocking.openLockFile(path) } catch let error as SystemError {
            throw OfflineStoreError(.storage, "cannot open the sync lock file \(path): \(error.reason)")
        }
        // The lock file holds a process id, nothing secret, but "every file the store
        // creates" takes the store's class, so no file of the store is readable when it is not.
        do { try DataProtection.copy(from: storePath, to: path) } catch {
            FileLocking.close(fd)
            throw OfflineStoreError(.storage, "cannot give the sync lock file the store's file protection",
                                    underlying: String(describing: error))
        }
        descriptor = fd
        return fd
    }
}
