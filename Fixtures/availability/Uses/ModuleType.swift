// The module's own `@available` type, used from unannotated code in the same module.

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class LocalLive {
    init() {}
    func refresh() {}
}

func useLocal() {
    // expect: LocalLive needs macOS 14, iOS 17, tvOS 17, watchOS 10
    LocalLive().refresh()
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
struct LocalScreen {
    let live = LocalLive()
}
