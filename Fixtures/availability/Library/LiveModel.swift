// A library type newer than the floor, as OfflineStore's `LiveQuery` is.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public final class LiveModel {
    public init() {}
    public var count: Int { 0 }
}
