#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The random bytes of the required-work floor's keys (``RawRequiredEdits``), made as the
/// library's `SecureRandom` makes them (the benchmark package cannot see that `package`
/// name): `arc4random_buf` on Darwin; elsewhere a 256-byte buffer behind a mutex that one
/// `getentropy` call fills for 16 keys. The library's buffer is also discarded across a
/// fork; the benchmark never forks while drawing keys.
enum FloorRandom {
    /// 16 random bytes.
    static func next128() -> (UInt64, UInt64) {
        var value: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &value) { raw in
            #if canImport(Darwin)
            arc4random_buf(raw.baseAddress!, 16)
            #else
            Buffer.shared.take(into: raw.baseAddress!)
            #endif
        }
        return value
    }

    #if !canImport(Darwin)
    private final class Buffer: @unchecked Sendable {
        // @unchecked Sendable: `bytes` and `used` are touched only while `mutex` is held.
        static let shared = Buffer()
        private let mutex: UnsafeMutablePointer<pthread_mutex_t> = .allocate(capacity: 1)
        private let bytes = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        private var used = 256

        private init() { pthread_mutex_init(mutex, nil) }

        func take(into out: UnsafeMutableRawPointer) {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            if used == 256 {
                guard getentropy(bytes, 256) == 0 else { fatalError("getentropy failed") }
                used = 0
            }
            out.copyMemory(from: bytes + used, byteCount: 16)
            (bytes + used).initializeMemory(as: UInt8.self, repeating: 0, count: 16)
            used += 16
        }
    }
    #endif
}
