#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Advisory whole-file locks (`flock(2)`) shared between processes, and the note in the
/// lock file that names the process holding it.
///
/// `flock` is the same call on Darwin, Glibc and Musl (4.4BSD semantics on each): the lock
/// belongs to the open file description, so the kernel drops it when the last descriptor
/// on it closes, which happens when its process ends, however it ends. Darwin has no
/// `/proc/locks` and no call that names the process holding a `flock` (`F_GETLK` reports
/// `l_pid` -1 for them), so the holder writes its own process id into the file
/// (``noteHolder(_:)``) while it holds the lock; the tests read it (`FileLocking.holder(of:)`,
/// in `OfflineStoreTestPlatform`) only while the lock is held: a note left by a process that
/// died is never trusted.
package enum FileLocking {
    /// Opens `path` for locking (read-write, created 0600 when missing, close-on-exec).
    ///
    /// - Throws: ``SystemError`` when the file cannot be opened or created.
    package static func openLockFile(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemError("open \(path)", code: errno) }
        return fd
    }

    /// Takes the exclusive lock without waiting: true when taken, false when another
    /// description holds it (or a signal interrupted the call; try again).
    ///
    /// - Throws: ``SystemError`` for any other failure.
    package static func tryLockExclusive(_ fd: Int32, path: String) throws -> Bool {
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
        let code = errno
        if code == EWOULDBLOCK || code == EAGAIN || code == EINTR { return false }
        throw SystemError("flock \(path)", code: code)
    }

    /// Releases the lock held through `fd`.
    package static func unlock(_ fd: Int32) {
        _ = flock(fd, LOCK_UN)
    }

    /// Closes a descriptor from ``openLockFile(_:)`` (which releases its lock).
    package static func close(_ fd: Int32) {
        _ = closeDescriptor(fd)
    }

    /// Whether some description (of any process, this one included) holds the lock on
    /// `path` now: probed with a shared, non-blocking lock on a descriptor of its own.
    package static func isLocked(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { _ = closeDescriptor(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            _ = flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK || errno == EAGAIN
    }

    /// Writes `processID` as the file's whole content: called by the holder right after it
    /// took the lock. Best effort: a note that cannot be written only hides the holder.
    package static func noteHolder(_ fd: Int32, processID: Int32 = getpid()) {
        let text = Array("\(processID)\n".utf8)
        guard ftruncate(fd, 0) == 0 else { return }
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Empties the note: called by the holder right before it releases the lock.
    package static func clearHolderNote(_ fd: Int32) {
        _ = ftruncate(fd, 0)
    }
}

/// `close(2)`, under a name that does not collide with the types' own `close()` methods.
package func closeDescriptor(_ fd: Int32) -> Int32 {
    close(fd)
}
