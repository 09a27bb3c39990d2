// Every fixed form of a use of `String(validating:as:)`: none is reported.

func ifAvailable(_ bytes: [UInt8]) -> String? {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return String(validating: bytes, as: UTF8.self)
    }
    return String(decoding: bytes, as: UTF8.self)
}

func guardAvailable(_ bytes: [UInt8]) -> String? {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
    return String(validating: bytes, as: UTF8.self)
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func annotatedFunction(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct AnnotatedType {
    func decode(_ bytes: [UInt8]) -> String? {
        let nested = { String(validating: bytes, as: UTF8.self) }
        return nested()
    }
}

struct ExtendedType {}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension ExtendedType {
    func decode(_ bytes: [UInt8]) -> String? { String(validating: bytes, as: UTF8.self) }
}

// The long form, one platform per attribute.
@available(macOS, introduced: 15)
@available(iOS, introduced: 18)
@available(tvOS, introduced: 18)
@available(watchOS, introduced: 11)
@available(visionOS, introduced: 2)
func longForm(_ bytes: [UInt8]) -> String? {
    String(validating: bytes, as: UTF8.self)
}

// No Apple platform compiles this.
func linuxOnly(_ bytes: [UInt8]) -> String? {
    #if os(Linux)
    return String(validating: bytes, as: UTF8.self)
    #else
    return String(decoding: bytes, as: UTF8.self)
    #endif
}
