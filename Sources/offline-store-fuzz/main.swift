import Foundation
import OfflineStoreFuzzDriver
import OfflineStoreFuzzing

// offline-store-fuzz --list                   the targets, one name a line
// offline-store-fuzz TARGET PATH...           a build for fuzzing (scripts/fuzz): libFuzzer over TARGET,
//                                             PATH... being libFuzzer's flags and corpus folders
//                                             any other build: replays each file (folders: every file
//                                             in them) through TARGET's properties
// Exit status: 0 when every replayed input kept every property, 1 when one did not, 64 for usage.

/// The target this process runs: the first argument, or (in a process libFuzzer started
/// itself, e.g. for `-merge=1`) the one its parent put in the environment.
enum Selection {
    static let fromArguments = CommandLine.arguments.count > 1 ? FuzzTarget.named(CommandLine.arguments[1]) : nil
    static let target = fromArguments
        ?? ProcessInfo.processInfo.environment["OFFLINE_STORE_FUZZ_TARGET"].flatMap(FuzzTarget.named)
}

/// libFuzzer's callback: a violated property stops the process, which libFuzzer records as a crash.
let fuzzOne: OfflineStoreFuzzCallback = { data, size in
    guard let target = Selection.target else { return 0 }
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    do {
        try target.check(bytes)
    } catch {
        fatalError("\(target.name): property violated: \(error)")
    }
    return 0
}

/// Every file named (folders: the files in them, recursively), sorted.
func files(_ paths: [String]) -> [URL] {
    paths.flatMap { path -> [URL] in
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [url] }
        let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
        return (walker?.allObjects as? [URL] ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }
}

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--list" {
    for target in FuzzTarget.all { print(target.name) }
    exit(0)
}
guard let target = Selection.target else {
    FileHandle.standardError.write(Data("usage: offline-store-fuzz --list | TARGET [PATH...]; targets: \(FuzzTarget.all.map(\.name).joined(separator: ", "))\n".utf8))
    exit(64)
}
// The arguments after the target (all of them in a process libFuzzer started).
let rest = Array(arguments.dropFirst(Selection.fromArguments == nil ? 1 : 2))
if offline_store_fuzz_available() != 0 {
    // The target's own flags first: libFuzzer takes the last value of a flag given twice.
    let flags = Selection.fromArguments == nil ? [] : target.fuzzerFlags
    var argv: [UnsafeMutablePointer<CChar>?] = ([arguments[0]] + flags + rest).map { strdup($0) }
    exit(offline_store_fuzz_run(target.name, Int32(argv.count), &argv, fuzzOne))
}
var violations = 0
let inputs = files(rest)
for file in inputs {
    guard let data = FileManager.default.contents(atPath: file.path) else {
        print("unreadable: \(file.path)")
        violations += 1
        continue
    }
    do {
        try target.check(Array(data))
    } catch {
        print("VIOLATION \(file.path): \(error)")
        violations += 1
    }
}
print("\(target.name): \(inputs.count) inputs replayed, \(violations) violations")
exit(violations == 0 ? 0 : 1)
