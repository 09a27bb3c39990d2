import Foundation
import Testing
@testable import OfflineStore

/// A ≥ 20 MB blob goes up and comes back through the real Kinto with bounded memory:
/// each direction runs in a child process (`blob-probe`) that reports its peak resident
/// memory (VmHWM) before and after the big blob.
@Suite struct BlobMemoryTests {
    static let bigSize = 24 << 20
    /// The warm-up blob: bigger than every fixed-size buffer (1 MiB pieces), so the baseline
    /// already holds them and what follows measures only growth with the blob's size.
    static let warmUpSize = 3 << 20
    /// The most the peak may grow while the big blob moves: half the blob (a copy of the
    /// whole blob would be 24 MB). Measured: 1.5–3.6 MB idle, 6.2 MB on a heavily loaded
    /// machine and 9.5 MB in a fresh-machine run of the whole suite (libcurl's buffers fill
    /// while the server is slow); 48 MB blobs grow it no more.
    static let allowedGrowthKB = 12 << 10

    @Test(.liveServer) func largeBlobUploadAndDownloadKeepMemoryBounded() async throws {
        let probe = try #require(Self.probeURL(), "the blob-probe executable was not found: build it with `swift build --build-tests`")
        let kinto = try KintoServer.url()
        try await withTemporaryDirectory { directory in
            let bucket = KintoServer.uniqueName("b")
            let small = directory.url.appendingPathComponent("small.bin")
            let big = directory.url.appendingPathComponent("big.bin")
            try Self.writeLarge(small, size: Self.warmUpSize)
            try Self.writeLarge(big, size: Self.bigSize)
            let expected = try BlobTestSupport.independentSHA256(big)

            let up = try await Self.run(probe, ["up", directory.path("up.sqlite"), kinto.absoluteString, bucket, small.path, big.path])
            #expect(up["sha256"] == expected)
            let upGrowth = try #require(Int(up["peak"] ?? "")) - (try #require(Int(up["baseline"] ?? "")))
            #expect(upGrowth < Self.allowedGrowthKB, "upload grew the peak by \(upGrowth) kB for a \(Self.bigSize >> 10) kB blob")

            let down = try await Self.run(probe, ["down", directory.path("down.sqlite"), kinto.absoluteString, bucket])
            #expect(down["sha256"] == expected)
            let file = URL(fileURLWithPath: try #require(down["file"]))
            #expect(try BlobTestSupport.independentSHA256(file) == expected)
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber == NSNumber(value: Self.bigSize))
            let downGrowth = try #require(Int(down["peak"] ?? "")) - (try #require(Int(down["baseline"] ?? "")))
            #expect(downGrowth < Self.allowedGrowthKB, "download grew the peak by \(downGrowth) kB for a \(Self.bigSize >> 10) kB blob")
            print("blob memory: \(Self.bigSize >> 20) MB blob, peak growth upload \(upGrowth) kB, download \(downGrowth) kB")
        }
    }

    /// Writes pseudo-random bytes in 1 MiB pieces (the test process stays small too).
    static func writeLarge(_ url: URL, size: Int) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var written = 0
        var seed: UInt64 = 42
        while written < size {
            let piece = BlobTestSupport.bytes(min(1 << 20, size - written), seed: seed)
            try handle.write(contentsOf: piece)
            written += piece.count
            seed += 1
        }
    }

    /// Runs the probe to its end; returns its `key value` lines, or fails with its standard error.
    static func run(_ probe: URL, _ arguments: [String]) async throws -> [String: String] {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[String: String], any Error>) in
            // Reading the pipes blocks, so it happens on a thread of its own.
            Thread {
                continuation.resume(with: Result(catching: {
                    let child = try ChildSpawn(executable: probe.path, arguments: arguments)
                    // The probe writes little to standard error; reading stdout to its end first cannot block it.
                    let stdout = FileHandle(fileDescriptor: child.stdout, closeOnDealloc: true).readDataToEndOfFile()
                    let stderr = FileHandle(fileDescriptor: child.stderr, closeOnDealloc: true).readDataToEndOfFile()
                    let status = child.waitForExit()
                    guard status == 0 else {
                        throw ProbeFailed(description: "blob-probe \(arguments.first ?? "") exited \(status): "
                            + String(decoding: stderr, as: UTF8.self))
                    }
                    if !stderr.isEmpty { print(String(decoding: stderr, as: UTF8.self), terminator: "") }  // a stopped upload's reason
                    var values: [String: String] = [:]
                    for line in String(decoding: stdout, as: UTF8.self).split(separator: "\n") {
                        let parts = line.split(separator: " ", maxSplits: 1)
                        if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
                    }
                    return values
                }))
            }.start()
        }
    }

    struct ProbeFailed: Error, CustomStringConvertible { var description: String }

    /// The `blob-probe` executable: next to the test bundle, or in the package's `.build/debug`.
    static func probeURL() -> URL? {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return [bundle.deletingLastPathComponent().appendingPathComponent("blob-probe"),
                Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("blob-probe"),
                packageRoot.appendingPathComponent(".build/debug/blob-probe")]
            .compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
