// swift-tools-version:6.2
// The benchmark program of OfflineStore, kept apart so that normal builds and tests of
// the library do not pay for it. Run it with `scripts/bench` (see Docs/Performance.md).
import Foundation
import PackageDescription

// A path dependency's identity is its directory name, which differs between checkouts.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "OfflineStoreBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "offline-store-bench",
            dependencies: [
                .product(name: "OfflineStore", package: root.lastPathComponent),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
