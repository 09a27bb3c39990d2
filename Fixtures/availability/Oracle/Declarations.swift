// Declarations the oracle fixtures use (scripts/lib/availability/tests/test_oracle.py).
// Compiled with -parse-stdlib: no standard library, so the same file type-checks for Linux
// and for every Apple target, where the compiler itself judges availability.

// `_ = x` needs the assignment precedence group, which the standard library otherwise declares.
precedencegroup AssignmentPrecedence { assignment: true associativity: right }

public struct Box { public init() {} }

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public final class Live {
    public init() {}
    public func member() {}
    public static func make() -> Live { Live() }
    public var computed: Box { Box() }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public func newest() {}

@available(macOS, introduced: 15)
@available(iOS, introduced: 18)
@available(tvOS, introduced: 18)
public func longForm() {}

@available(macOS 14, *)
public func macOnly() {}

// visionOS takes iOS 17.4 as visionOS 1.1 (the SDK's iOS→visionOS map).
@available(iOS 17.4, *)
public func iosPointFour() {}

@available(iOS 13, *)
public func iosOld() {}

@available(iOS, unavailable)
public func notOnIOS() {}

public struct Plain { public init() {} }

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Plain {
    public func fromExtension() {}
}

public struct Member {
    public init() {}
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    public var newer: Box { Box() }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public func newest() {}
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
public protocol NewProtocol {}

// A requirement newer than its protocol-extension default (like Swift 6's
// `FixedWidthInteger.&*`): where the requirement is not available, the compiler calls the default.
public protocol Counting {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func count() -> Box
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func onlyNew() -> Box
}

extension Counting {
    public func count() -> Box { Box() }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Counting {
    public func onlyNew() -> Box { Box() }
}

public struct Counter: Counting { public init() {} }

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
open class NewClass { public init() {} }

// A member in the type's body takes the type's availability without being checked for it; a
// member of an `@available` extension is checked for the extension's, even when it is the type's.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public struct Job {
    public init() {}
    public func run() {}
    public struct Kind { public init() {} }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Job {
    public func runFromExtension() {}
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public func makeJob() -> Job { Job() }

public protocol Requirement {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func required()
}
