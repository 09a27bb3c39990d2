#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Random bytes from the system's cryptographically secure generator, for the store's
/// random UUIDs (idempotency keys, generated object ids): one per edit, so their cost counts.
///
/// Darwin: `arc4random_buf`, which runs in user space and is fork-safe by itself.
/// Linux: `SystemRandomNumberGenerator` makes one `getrandom` system call per 8 bytes,
/// about 0.57 µs each on the 2-core VM the benchmarks run on (two per UUID, a sixth of a
/// bulk edit). Here one `getentropy` call (the same kernel generator) fills 256 bytes, which
/// 16 UUIDs then take in turn. The buffer is process-wide behind a mutex, and a child made
/// by `fork()` discards it (`pthread_atfork`), so parent and child never hand out the same
/// bytes. Every byte is handed out once.
package enum SecureRandom {
    /// 16 random bytes.
    package static func next128() -> (UInt64, UInt64) {
        var value: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &value) { fill($0) }
        return value
    }

    /// Fills `buffer` with random bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let start = buffer.baseAddress, !buffer.isEmpty else { return }
        #if canImport(Darwin)
        arc4random_buf(start, buffer.count)
        #else
        EntropyBuffer.shared.take(into: start, count: buffer.count)
        #endif
    }
}

#if !canImport(Darwin)
/// The process-wide buffer of random bytes (Linux, Musl).
private final class EntropyBuffer: @unchecked Sendable {
    // @unchecked Sendable: `bytes` and `used` are touched only while `mutex` is held (or in
    // the fork child handler, where only the forking thread exists and `prepare` took it).
    static let shared = EntropyBuffer()

    /// `getentropy` fills at most 256 bytes per call.
    private static let capacity = 256
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let bytes: UnsafeMutableRawPointer
    /// How many bytes of `bytes` were handed out; `capacity` when empty.
    private var used: Int

    private init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        bytes = .allocate(byteCount: Self.capacity, alignment: 16)
        used = Self.capacity
        // Held across a fork, so the buffer is not mid-change in the child, which then
        // empties it: the bytes the parent will hand out are never handed out in the child.
        pthread_atfork({ EntropyBuffer.shared.lock() },
                       { EntropyBuffer.shared.unlock() },
                       { EntropyBuffer.shared.discardInChild() })
    }

    private func lock() { pthread_mutex_lock(mutex) }
    private func unlock() { pthread_mutex_unlock(mutex) }

    private func discardInChild() {
        used = Self.capacity
        pthread_mutex_unlock(mutex)
    }

    func take(into out: UnsafeMutableRawPointer, count: Int) {
        var out = out, count = count
        lock()
        defer { unlock() }
        while count > 0 {
            if used == Self.capacity { refill() }
            let n = min(count, Self.capacity - used)
            out.copyMemory(from: bytes + used, byteCount: n)
            // Bytes handed out are not kept.
            (bytes + used).initializeMemory(as: UInt8.self, repeating: 0, count: n)
            used += n
            out += n
            count -= n
        }
    }

    /// Fills the buffer from the kernel; if `getentropy` fails (a kernel without
    /// `getrandom`), from `SystemRandomNumberGenerator`, which falls back to `/dev/urandom`.
    private func refill() {
        if getentropy(bytes, Self.capacity) != 0 {
            var generator = SystemRandomNumberGenerator()
            for offset in stride(from: 0, to: Self.capacity, by: 8) {
                (bytes + offset).storeBytes(of: generator.next() as UInt64, as: UInt64.self)
            }
        }
        used = 0
    }
}
#endif
