// A `for await` loop calls `next(isolation:)` (macOS 15) where available and `next()`
// elsewhere, so it is no use of the newer one; an explicit call is.

func consume(_ stream: AsyncStream<Int>) async -> Int {
    var total = 0
    for await value in stream { total += value }
    var iterator = stream.makeAsyncIterator()
    // expect: AsyncStream.Iterator.next(isolation:) needs macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2
    total += await iterator.next(isolation: nil) ?? 0
    return total
}
