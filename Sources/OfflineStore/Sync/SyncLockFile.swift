import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory exclusive `flock(2)` on one file, shared by every process that opens it.
///
/// The file is opened (created 0600) on first use and kept open for the store's life; the
/// lock belongs to that open file description, so the kernel drops it when the process
/// ends, however it ends. Waiting polls with a short, growing pause (1–25 ms), so a
/// waiting task can be cancelled and no thread is blocked.
///
/// On Apple platforms this works between an app and its extensions on a store in a shared
/// app-group container; a lock held across suspension is released when the system kills
/// the process, like any descriptor.
final class SyncLockFile: @unchecked Sendable {
    // @unchecked: `descriptor` is written once under `openLock` and only read afterwards;
    // flock itself is thread-safe. Callers serialise lock/unlock through SyncLock's AsyncLock.
    let path: String
    private var descriptor: Int32 = -1
    private let openLock = NSLock()

    init(path: String) { self.path = path }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Takes the lock, waiting for its holder in another process.
    ///
    /// - Throws: ``OfflineStoreError/Code/storage`` when the file cannot be opened or locked;
    ///   `CancellationError` when the task is cancelled while waiting.
    func lock() async throws {
        let fd = try openedDescriptor()
        var pause: UInt64 = 1_000_000
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return }
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                throw OfflineStoreError(.storage, "cannot lock \(path): \(String(cString: strerror(code)))")
            }
            try await Task.sleep(nanoseconds: pause)
            pause = min(pause * 2, 25_000_000)
        }
    }

    /// Releases the lock.
    func unlock() {
        openLock.lock()
        let fd = descriptor
        openLock.unlock()
        if fd >= 0 { _ = flock(fd, LOCK_UN) }
    }

    /// Whether some descriptor (of any process, this one included) holds the lock now:
    /// probed with a shared, non-blocking lock on a descriptor of its own.
    var isHeldByAnyone: Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            _ = flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    private func openedDescriptor() throws -> Int32 {
        openLock.lock()
        defer { openLock.unlock() }
        if descriptor >= 0 { return descriptor }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw OfflineStoreError(.storage, "cannot open the sync lock file \(path): \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        return fd
    }
}
