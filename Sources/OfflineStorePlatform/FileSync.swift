#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Flushing a file to stable storage.
///
/// On Linux `fsync(2)` flushes the data and asks the drive to flush its cache. On Apple
/// platforms `fsync` only hands the data to the drive, which may keep it in its cache and
/// reorder writes; `fcntl(F_FULLFSYNC)` is the call that asks the drive to flush (Apple's
/// fsync(2) man page says so). Some file systems refuse `F_FULLFSYNC` (network and FAT
/// volumes): then `fsync` is the best there is.
package enum FileSync {
    /// Flushes everything written to `fd` to stable storage.
    ///
    /// - Throws: ``SystemError`` when the flush fails.
    package static func toStableStorage(_ fd: Int32) throws {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        while fsync(fd) != 0 {
            let code = errno
            guard code == EINTR else { throw SystemError("fsync", code: code) }
        }
    }

    /// Whether SQLite must be told to use `F_FULLFSYNC` (`PRAGMA fullfsync`,
    /// `PRAGMA checkpoint_fullfsync`) for its syncs to mean what they mean on Linux.
    package static var sqliteNeedsFullFSync: Bool {
        #if canImport(Darwin)
        true
        #else
        false
        #endif
    }
}
