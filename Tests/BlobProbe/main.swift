// blob-probe: uploads or downloads a large blob through the real Kinto in its own process
// and reports the process's peak resident memory (ProcessFacts), for BlobMemoryTests.
//
// Usage:
//   blob-probe up <store-path> <kinto-url> <bucket> <small-file> <big-file>
//       creates objects o0 and o1 in collection "files", attaches small-file to o0 (warm-up:
//       loads the network and upload code), then big-file to o1, each flushed at once.
//   blob-probe down <store-path> <kinto-url> <bucket>
//       refreshes "files", reads o0's blob (warm-up), then o1's blob (lazy download).
//
// The warm-up blob should be larger than the fixed buffers (1 MiB pieces) so the baseline holds them.
// Prints, one per line: `baseline <peak kB before the big blob>`, `peak <peak kB after>`,
// `sha256 <hex of the big blob as the store holds it>`, `file <path of the store's file>`.
// Exit status: 0 on success, 1 on failure (message on standard error), 64 for bad arguments.

import Foundation
import OfflineStore
import OfflineStoreTestPlatform

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data(("blob-probe: " + message + "\n").utf8))
    exit(status)
}

/// The process's peak resident set size in kB (``ProcessFacts``, the platform layer).
func peakResidentKB() -> Int {
    do { return try ProcessFacts.peakResidentBytes() / 1024 } catch { fail("cannot read the peak resident memory: \(error)") }
}

let arguments = CommandLine.arguments
guard arguments.count >= 5, let url = URL(string: arguments[3]) else {
    fail("usage: blob-probe up|down <store-path> <kinto-url> <bucket> [<small-file> <big-file>]", status: 64)
}
let backend = KintoBackend(configuration: .init(serverURL: url, bucket: arguments[4],
                                                auth: .basic(user: "alice", password: "secret"), timeout: .seconds(120)))
do {
    // Each edit awaits the server: the upload has happened when attach returns.
    var configuration = ObjectStore.Configuration()
    configuration.writeMode = .awaitingServer
    let store = try ObjectStore(path: arguments[2], configuration: configuration, backend: backend)
    try store.register(CollectionDescriptor("files", blobFields: [BlobField("content")]))
    let files = store.collection("files")
    let baseline: Int
    let blob: URL
    switch arguments[1] {
    case "up" where arguments.count == 7:
        try await files.create(["id": "o0"])
        try await files.create(["id": "o1"])
        try await files.attach("o0", field: "content", file: URL(fileURLWithPath: arguments[5]))
        baseline = peakResidentKB()
        // An attach awaiting the server throws when the upload could not finish (a transport
        // error, a 412), and the blob stays pending. An app flushes again later; the probe does
        // so once and says why the first upload stopped.
        do {
            try await files.attach("o1", field: "content", file: URL(fileURLWithPath: arguments[6]))
        } catch let stopped as OfflineStoreError {
            guard try files.blobStatus("o1", field: "content")?.isPending == true else { throw stopped }
            FileHandle.standardError.write(Data("blob-probe: the big blob's upload stopped (\(stopped)); flushing again\n".utf8))
            do { try await store.flush() } catch { fail("the big blob was not uploaded (\(stopped)); the second flush: \(error)") }
        }
        guard try files.blobStatus("o1", field: "content")?.isPending == false else { fail("the big blob was not uploaded") }
        blob = try await files.blobURL("o1", field: "content")
    case "down":
        try await store.refresh()
        _ = try await files.blobURL("o0", field: "content")
        baseline = peakResidentKB()
        blob = try await files.blobURL("o1", field: "content")
    default:
        fail("unknown mode or wrong arguments: \(arguments.dropFirst().joined(separator: " "))", status: 64)
    }
    let peak = peakResidentKB()
    guard let reference = BlobReference(json: try files.find("o1")?["content"]) else { fail("o1 has no blob reference") }
    print("baseline \(baseline)")
    print("peak \(peak)")
    print("sha256 \(reference.sha256)")
    print("file \(blob.path)")
    try store.close()
} catch {
    fail(String(describing: error))
}
