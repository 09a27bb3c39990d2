import Observation

// `withObservationTracking` is macOS 14, iOS 17, tvOS 17, watchOS 10 (visionOS 1, from iOS 17).

func track(_ read: () -> Void) {
    // expect: withObservationTracking(_:onChange:) needs macOS 14, iOS 17, tvOS 17, watchOS 10
    withObservationTracking { read() } onChange: {}
}

func trackWhenAvailable(_ read: () -> Void) {
    guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
    withObservationTracking { read() } onChange: {}
}
