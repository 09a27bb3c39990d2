// `String(validating:as:)` is macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2.

func unguarded(_ bytes: [UInt8]) -> String? {
    // expect: String.init(validating:as:) needs macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2
    String(validating: bytes, as: UTF8.self)
}

// A query for macOS alone leaves the other platforms at their floors.
func macOSQueryOnly(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, *) {
        // expect: String.init(validating:as:) needs iOS 18, tvOS 18, watchOS 11, visionOS 2
        return String(validating: bytes, as: UTF8.self)
    }
    return nil
}

// A guard lower than the declaration needs.
func guardTooLow(_ bytes: [UInt8]) -> String? {
    guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return nil }
    // expect: String.init(validating:as:) needs macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2
    return String(validating: bytes, as: UTF8.self)
}
