import Foundation

/// Per-file data protection classes (iOS, iPadOS, watchOS, visionOS).
///
/// Those systems encrypt each file with a key of its class; a file created without a
/// class takes its directory's, and a file moved into a directory keeps its own (Apple's
/// "Encrypting Your App's Files" and the `FileProtectionType` reference). Elsewhere every
/// call here does nothing, so callers need no `#if`: macOS and Linux have no per-file
/// classes, and on tvOS, where Apple lists the attribute as available, an Apple TV has no
/// device passcode whose lock a class would wait for, so setting one could only fail a
/// store's open without protecting anything.
package enum DataProtection {
    /// A protection class (`FileProtectionType`).
    package enum Level: Sendable, Hashable {
        case complete, completeUnlessOpen, completeUntilFirstUserAuthentication, none
    }

    /// Whether the platform has per-file classes.
    package static var isSupported: Bool {
        #if os(iOS) || os(watchOS) || os(visionOS)
        true
        #else
        false
        #endif
    }

    /// Gives the file or directory at `path` the class `level`.
    ///
    /// - Throws: Foundation's error when the attribute cannot be set.
    package static func apply(_ level: Level, to path: String) throws {
        #if os(iOS) || os(watchOS) || os(visionOS)
        try FileManager.default.setAttributes([.protectionKey: level.foundationType], ofItemAtPath: path)
        #endif
    }

    /// The class of the file or directory at `path`; nil where there are none or it has none.
    package static func level(of path: String) -> Level? {
        #if os(iOS) || os(watchOS) || os(visionOS)
        guard let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.protectionKey] as? FileProtectionType
        else { return nil }
        return Level(type)
        #else
        return nil
        #endif
    }

    /// Gives `path` the class of `source` (a file the store made, or its directory), so a
    /// file created or moved later carries the class the store was opened with.
    ///
    /// - Throws: Foundation's error when the attribute cannot be set.
    package static func copy(from source: String, to path: String) throws {
        guard let level = level(of: source) else { return }
        try apply(level, to: path)
    }
}

#if os(iOS) || os(watchOS) || os(visionOS)
extension DataProtection.Level {
    /// Foundation's name for the class.
    var foundationType: FileProtectionType {
        switch self {
        case .complete: .complete
        case .completeUnlessOpen: .completeUnlessOpen
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        case .none: .none
        }
    }

    init?(_ type: FileProtectionType) {
        switch type {
        case .complete: self = .complete
        case .completeUnlessOpen: self = .completeUnlessOpen
        case .completeUntilFirstUserAuthentication: self = .completeUntilFirstUserAuthentication
        case .none: self = .none
        default: return nil
        }
    }
}
#endif
