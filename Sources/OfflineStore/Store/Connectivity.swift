/// Whether the app forced the store offline (``ObjectStore/setOffline(_:)``).
final class Connectivity: Sendable {
    private let forced = Locked(false)

    var isForcedOffline: Bool { forced.withLock { $0 } }

    func setForcedOffline(_ offline: Bool) { forced.withLock { $0 = offline } }
}
