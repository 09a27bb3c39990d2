import Foundation
import Testing

/// What an app that depends on this package's library products resolves: the products'
/// target closure reaches only GRDB.swift and swift-log. Tool-only and test-only packages
/// (swift-argument-parser for the `offline-store` tool, swift-property-based for the tests,
/// the DocC plugin) reach no app: SwiftPM resolves a dependency's packages only for the
/// products the app uses, and a declared `.executable` product would count as one.
@Suite struct PackageProductsTests {
    /// The manifest as `swift package dump-package` prints it (a scratch path of its own, so
    /// it never waits for the build's lock).
    static func manifest() async throws -> [String: Any] {
        let output = try await offPool { () throws -> Data in
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["swift", "package", "--package-path", ChildProcess.packageRoot.path,
                                 "--scratch-path", scratch.path, "dump-package"]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw HarnessError("swift package dump-package failed") }
            return data
        }
        return try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
    }

    /// The packages a product's targets reach, through target dependencies, by package identity.
    static func packages(reachedBy product: [String: Any], in manifest: [String: Any]) -> Set<String> {
        let targets = (manifest["targets"] as? [[String: Any]] ?? []).reduce(into: [String: [[String: Any]]]()) {
            $0[$1["name"] as? String ?? ""] = $1["dependencies"] as? [[String: Any]] ?? []
        }
        var pending = product["targets"] as? [String] ?? [], seen = Set<String>(), packages = Set<String>()
        while let target = pending.popLast() {
            guard seen.insert(target).inserted else { continue }
            for dependency in targets[target] ?? [] {
                if let local = (dependency["target"] ?? dependency["byName"]) as? [Any], let name = local.first as? String {
                    pending.append(name)
                } else if let external = dependency["product"] as? [Any], external.count > 1, let package = external[1] as? String {
                    packages.insert(package.lowercased())
                }
            }
        }
        return packages
    }

    @Test func theProductsReachOnlyGRDBAndSwiftLog() async throws {
        let manifest = try await Self.manifest()
        let products = try #require(manifest["products"] as? [[String: Any]])
        #expect(Set(products.compactMap { $0["name"] as? String }) == ["OfflineStore", "OfflineStoreTesting"])
        for product in products {
            let reached = Self.packages(reachedBy: product, in: manifest)
            #expect(reached.isSubset(of: ["grdb.swift", "swift-log"]), "\(product["name"] ?? "?") reaches \(reached.sorted())")
        }
    }
}
