import Dispatch
import OfflineStore

/// Choices read off the front of a fuzz input, and the rest as the payload.
///
/// libFuzzer mutates every byte, so a byte taken as a choice (a chunk size, a configuration)
/// is explored like the payload. An input that runs out gives zeros: every input is valid.
struct FuzzInput {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    /// The next byte, or 0 when none is left.
    mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    /// What is left.
    var rest: [UInt8] { Array(bytes) }
}

/// A small deterministic generator (SplitMix64): the same seed gives the same sequence, so an
/// input replays exactly.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}

extension Array where Element == UInt8 {
    /// The parts between occurrences of `separator` (a part may be empty).
    func split(separator: [UInt8]) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var start = startIndex, index = startIndex
        while index + separator.count <= endIndex {
            if self[index..<(index + separator.count)].elementsEqual(separator) {
                parts.append(self[start..<index])
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(self[start..<endIndex])
        return parts
    }
}

/// Runs async work to its end from synchronous code (libFuzzer's callback thread, which is
/// not one of the concurrency pool's), and returns its result.
func runBlocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await work()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0 }!
}

/// The bytes as a String when they are well-formed UTF-8 (decoding repairs nothing then).
func utf8Text(_ bytes: some Collection<UInt8>) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.utf8.elementsEqual(bytes) ? text : nil
}
