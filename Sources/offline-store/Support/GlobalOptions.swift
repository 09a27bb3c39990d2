import ArgumentParser
import Foundation

/// Options every store command takes (`@OptionGroup var global: GlobalOptions`).
struct GlobalOptions: ParsableArguments {
    /// The default store file when neither `--store` nor `$OFFLINE_STORE` is given.
    static let defaultPath = "./offline-store.sqlite"
    /// The environment variable that overrides ``defaultPath``.
    static let environmentVariable = "OFFLINE_STORE"

    @Option(name: .long, help: ArgumentHelp(
        "The store file (default: $OFFLINE_STORE, else \(GlobalOptions.defaultPath)).", valueName: "path"))
    var store: String?

    /// The store file's path: `--store`, else `$OFFLINE_STORE`, else ``defaultPath``.
    var path: String {
        if let store { return store }
        if let fromEnvironment = ProcessInfo.processInfo.environment[Self.environmentVariable], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return Self.defaultPath
    }
}
