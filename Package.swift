// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "OfflineStore",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "OfflineStore", targets: ["OfflineStore"]),
        .library(name: "OfflineStoreTesting", targets: ["OfflineStoreTesting"]),
        // No `.executable` products for the `offline-store` tool and the simulator: an app that
        // depends on the library would then resolve swift-argument-parser too. In a clone,
        // SwiftPM still gives each executable target a product of its own
        // (`swift build --product offline-store`, `--product offline-store-simulate`).
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // Only for `swift package generate-documentation`: a command plugin, nothing in the build.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The platform layer: every call whose spelling or behaviour differs between Darwin,
        // Glibc and Musl (locks, fsync, file protection, sockets, signals, random bytes),
        // behind `package` names. Not a product.
        .target(name: "OfflineStorePlatform"),
        // The platform calls only the tests and the probes make (child processes, a
        // pseudo-terminal, a small volume, a private trust store, process facts, a fork):
        // out of what an app links. Not a product.
        .target(name: "OfflineStoreTestPlatform", dependencies: ["OfflineStorePlatform"]),
        .target(
            name: "OfflineStore",
            dependencies: [
                "OfflineStorePlatform",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "OfflineStoreTesting",
            dependencies: ["OfflineStore", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "OfflineStoreInspector",
            dependencies: ["OfflineStore", "OfflineStorePlatform"]
        ),
        // `offline-store check-server`'s probing of a REST server (Docs/Backends.md, "Checking a
        // server"): a diagnostic of the tool, which alone links it (and its tests). Not a product.
        .target(
            name: "OfflineStoreServerCheck",
            dependencies: ["OfflineStore"]
        ),
        // The `offline-store` tool's pure parts (its `--where`, scope and migration arguments,
        // its errors and exit codes), a library so that the fuzz targets can call them. Not a product.
        .target(
            name: "OfflineStoreCommandLine",
            dependencies: ["OfflineStore"]
        ),
        .executableTarget(
            name: "offline-store",
            dependencies: [
                "OfflineStore", "OfflineStoreCommandLine", "OfflineStoreInspector", "OfflineStorePlatform",
                "OfflineStoreServerCheck",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fuzzing (Docs/Reliability.md, "Fuzzing"): each target's property function, the C shim
        // that calls libFuzzer's driver when `scripts/fuzz` builds with `-sanitize=fuzzer`, and the
        // `offline-store-fuzz` tool, which fuzzes under that build and otherwise replays inputs.
        // No product: no app links them.
        .target(
            name: "OfflineStoreFuzzing",
            dependencies: ["OfflineStore", "OfflineStoreCommandLine", "OfflineStoreInspector"]
        ),
        .target(name: "OfflineStoreFuzzDriver"),
        .executableTarget(
            name: "offline-store-fuzz",
            dependencies: ["OfflineStoreFuzzing", "OfflineStoreFuzzDriver"]
        ),
        .executableTarget(
            name: "offline-store-simulate",
            dependencies: [
                "OfflineStoreTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "quick-start-example",
            dependencies: ["OfflineStore"],
            path: "Examples/QuickStart"
        ),
        // Docs/Observing.md's main-actor example, byte for byte (DocumentationTests checks it).
        .executableTarget(
            name: "observing-example",
            dependencies: ["OfflineStore"],
            path: "Examples/Observing"
        ),
        .executableTarget(
            name: "todo-sync-example",
            dependencies: ["OfflineStore"],
            path: "Examples/TodoSync"
        ),
        // Docs/ApplePlatforms.md's background task, byte for byte (DocumentationTests checks it):
        // its store part is built everywhere and run by crash-writer lifecycle; its BackgroundTasks
        // part compiles only for iOS, tvOS and visionOS, which no job builds it for.
        .target(
            name: "BackgroundSyncExample",
            dependencies: ["OfflineStore"],
            path: "Examples/BackgroundSync"
        ),
        .executableTarget(
            name: "crash-writer",
            dependencies: ["OfflineStore", "OfflineStoreTesting", "OfflineStorePlatform", "BackgroundSyncExample"],
            path: "Tests/CrashWriter"
        ),
        .executableTarget(
            name: "blob-probe",
            dependencies: ["OfflineStore", "OfflineStoreTestPlatform"],
            path: "Tests/BlobProbe"
        ),
        // Tests that need no process, socket, server or file outside a temporary directory:
        // the part of the suite that could run on any platform (Docs/Testing.md).
        .testTarget(
            name: "OfflineStoreUnitTests",
            dependencies: ["OfflineStore", "OfflineStoreTesting"]
        ),
        .testTarget(
            name: "OfflineStoreTests",
            dependencies: [
                "OfflineStore", "OfflineStoreTesting", "OfflineStoreInspector", "OfflineStorePlatform",
                "OfflineStoreTestPlatform", "OfflineStoreServerCheck", "OfflineStoreCommandLine", "OfflineStoreFuzzing",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("../../Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
