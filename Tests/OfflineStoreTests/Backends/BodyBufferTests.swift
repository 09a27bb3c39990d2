import Foundation
import Testing
@testable import OfflineStore

/// The queue between a transport and a streamed body's reader (`BodyBuffer`): bounded by
/// pausing the transport at the high mark and resuming it at the low mark; chunks in order,
/// then the end or the error; an abandoned body cancels its request.
@Suite("Streamed body queue: marks, order, end, error, abandonment", .timeLimit(.minutes(5)))
struct BodyBufferTests {
    final class Calls: Sendable {
        let log = Locked<[String]>([])
        func note(_ call: String) { log.withLock { $0.append(call) } }
        var all: [String] { log.withLock { $0 } }
    }

    @Test func pausesAtTheHighMarkAndResumesAtTheLowMark() async throws {
        let calls = Calls()
        let buffer = BodyBuffer(pause: { calls.note("pause") }, resume: { calls.note("resume") }, cancel: { calls.note("cancel") })
        let chunk = Data(repeating: 7, count: 32 * 1024)
        let count = BodyBuffer.highMark / chunk.count
        for _ in 0..<count { buffer.append(chunk) }
        #expect(calls.all == ["pause"])
        buffer.append(chunk)   // a transport may deliver a little past the mark: queued, no second pause
        #expect(calls.all == ["pause"])
        buffer.finish(nil)
        var read = 0
        var resumedAfter: Int?
        while let data = try await buffer.next() {
            read += data.count
            if resumedAfter == nil, calls.all.count == 2 { resumedAfter = read }
        }
        #expect(read == (count + 1) * chunk.count)
        #expect(calls.all == ["pause", "resume"])
        // Resumed once no more than the low mark was left.
        #expect((count + 1) * chunk.count - (resumedAfter ?? 0) <= BodyBuffer.lowMark)
    }

    @Test func aWaitingReaderGetsChunksInOrderThenTheError() async throws {
        let buffer = BodyBuffer(pause: {}, resume: {}, cancel: {})
        let reader = Task { () -> ([UInt8], (any Error)?) in
            var bytes: [UInt8] = []
            do {
                while let data = try await buffer.next() { bytes += data }
                return (bytes, nil)
            } catch {
                return (bytes, error)
            }
        }
        for byte in UInt8(0)..<50 { buffer.append(Data([byte])) }
        buffer.finish(TransportError(.connectionLost, "gone"))
        let (bytes, error) = await reader.value
        #expect(bytes == Array(0..<50))
        #expect((error as? TransportError)?.kind == .connectionLost)
    }

    /// A second task waiting at once gets a typed error; the first keeps its place.
    @Test func aSecondWaitingReaderIsATypedErrorAndTheFirstGetsTheChunk() async throws {
        let buffer = BodyBuffer(pause: {}, resume: {}, cancel: {})
        let first = Task { try await buffer.next() }
        while !buffer.hasWaitingReader { await Task.yield() }
        await #expect(throws: TransportError.self) { _ = try await buffer.next() }
        buffer.append(Data([42]))
        #expect(try await first.value == Data([42]))
    }

    @Test func anAbandonedBodyCancelsItsRequestUnlessItEnded() async throws {
        let calls = Calls()
        do {
            let stream = HTTPBodyStream(BodyBuffer(pause: {}, resume: {}, cancel: { calls.note("cancel") }))
            var iterator = stream.makeAsyncIterator()
            _ = iterator
            iterator = stream.makeAsyncIterator()
        }
        #expect(calls.all == ["cancel"])
        let ended = Calls()
        do {
            let buffer = BodyBuffer(pause: {}, resume: {}, cancel: { ended.note("cancel") })
            buffer.finish(nil)
            _ = HTTPBodyStream(buffer)
        }
        #expect(ended.all.isEmpty)
    }

    @Test func aWholeBodyIsOneChunkAndAnEmptyOneNone() async throws {
        var chunks: [Data] = []
        for try await chunk in HTTPBodyStream(Data("abc".utf8)) { chunks.append(chunk) }
        #expect(chunks == [Data("abc".utf8)])
        for try await _ in HTTPBodyStream(Data()) { Issue.record("a chunk of an empty body") }
    }
}
