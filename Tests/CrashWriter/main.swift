// crash-writer: makes edits to a store until it is killed, for ObjectStoreCrashTests.
//
// Usage: crash-writer <store-path> <seed> <first-value> [<max-edits>]
//                     [--server URL --bucket NAME [--timeout SECONDS] [--backend kinto|rest|odata]]
//        crash-writer migrate <store-path>      (a stored migration; see MigrationRun.swift)
//        crash-writer lifecycle <store-path>    (suspension and resumption; see LifecycleRun.swift)
//
// Opens (or creates) the store, registers the collection "items" and loops over
// edits of the ids item-0 … item-11: create, patch, save (replace), destroy, and
// transactions patching two objects. Every object is
// `{"id": …, "counter": <value of its last write>, "created": <value of its last create or save>}`;
// edit number n writes the value first-value + n.
//
// Around each edit it writes one line to standard output, unbuffered:
//
//     intent <n> <op> <ids> <value>     before the edit call
//     ack <n> <op> <ids> <value>        after the call returned (the edit is acknowledged)
//
// where <ids> is one id or two ids joined by a comma (for op "tx"). The test kills the
// process with SIGKILL at a point it picks by counting these lines, then checks that the
// store holds every acknowledged edit.
//
// With --server (the sync workload of the Reliability suites) the store syncs with that
// Kinto in deferred write mode: between edits it runs, at seeded random points, a flush,
// refresh or sync (see SyncStep.swift for its `step` lines), and every HTTP request is
// announced with `wire` lines (WireLog.swift), so the parent can kill it inside a flush.
// With --backend rest the server is the Rails test app and the items are customers in the
// scope named by --bucket (WorkloadLayout.swift); ids are assigned by the server. With
// --backend odata the server is the OData fixture's service root and the items are its
// Customers, the same way.
// Exit status: 0 after max-edits edits, 1 when an
// edit fails (the message goes to standard error), 64 for bad arguments.

import Foundation
import OfflineStore
import OfflineStoreTesting

/// SplitMix64 (the simulator's), so a run can be replayed from its seed.
typealias SeededGenerator = SimulationRandom

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data(("crash-writer: " + message + "\n").utf8))
    exit(status)
}

let arguments = CommandLine.arguments
if arguments.count > 1, arguments[1] == "migrate" { MigrationRun.run(Array(arguments.dropFirst(2))) }
if arguments.count > 1, arguments[1] == "lifecycle" {
    await LifecycleRun.run(Array(arguments.dropFirst(2)))
    exit(0)
}
guard arguments.count >= 4, let seed = UInt64(arguments[2]), let firstValue = Int64(arguments[3]) else {
    fail("usage: crash-writer <store-path> <seed> <first-value> [<max-edits>]", status: 64)
}
let hasMax = arguments.count > 4 && !arguments[4].hasPrefix("--")
let maxEdits = hasMax ? Int64(arguments[4]) ?? 100_000 : 100_000
let server = ServerOptions(arguments.dropFirst(hasMax ? 5 : 4))
let ids = (0..<12).map { "item-\($0)" }

do {
    var configuration = ObjectStore.Configuration()
    configuration.writeMode = .deferred
    let store = try ObjectStore(path: arguments[1], configuration: configuration, backend: server?.backend())
    let layout = server?.layout ?? .kinto
    try store.register(CollectionDescriptor(layout.collection))
    let items = store.collection(layout.collection)
    var exists: [String: Bool] = [:]
    for id in ids { exists[id] = try layout.localID(of: id, in: items) != nil }
    var random = SeededGenerator(seed: seed)
    var steps = 0

    for n in 0..<maxEdits {
        if server != nil, Int.random(in: 0..<100, using: &random) < 25 {
            steps += 1
            await SyncStep.allCases.randomElement(using: &random)!.run(steps, on: store)
        }
        let value = firstValue + n
        let id = ids.randomElement(using: &random)!
        let op: String
        var touched = [id]
        if exists[id] != true {
            op = "create"
        } else {
            let roll = Int.random(in: 0..<100, using: &random)
            let others = ids.filter { $0 != id && exists[$0] == true }
            if roll < 15, let other = others.randomElement(using: &random) {
                op = "tx"
                touched.append(other)
            } else if roll < 55 {
                op = "patch"
            } else if roll < 70 {
                op = "save"
            } else {
                op = "destroy"
            }
        }
        let description = "\(n) \(op) \(touched.joined(separator: ",")) \(value)"
        say("intent " + description)
        switch op {
        case "create":
            try await items.create(.object(layout.object(id, counter: value, created: value)))
            exists[id] = true
        case "patch":
            try await items.patch(try layout.localID(of: id, in: items)!, layout.counterPatch(id, value: value, in: items))
        case "save":
            var object = layout.object(id, counter: value, created: value)
            object["id"] = .string(try layout.localID(of: id, in: items)!)
            try await items.save(.object(object))
        case "destroy":
            try await items.destroy(try layout.localID(of: id, in: items)!)
            exists[id] = false
        default:
            let patches = try touched.map { (try layout.localID(of: $0, in: items)!, try layout.counterPatch($0, value: value, in: items)) }
            try await store.transaction { tx in
                for (localID, patch) in patches { try tx.patch(localID, patch, in: layout.collection) }
            }
        }
        say("ack " + description)
    }
    try store.close()
} catch {
    fail("\(error)")
}
