/// The background sender's state (``BackgroundSender``): at most one pass at a time, and
/// signals that arrive during a pass fold into one more pass after it.
enum SenderState: Sendable, Hashable {
    /// No pass runs.
    case idle
    /// A pass runs; nothing arrived since it started.
    case sending
    /// A pass runs, and an edit committed since it started: one more pass follows.
    case sendingThenAgain
    /// The store closed: no pass starts again.
    case closed

    /// The state after `event`, and what the sender does about it.
    func next(on event: SenderEvent) -> (state: SenderState, action: SenderAction) {
        switch (self, event) {
        case (.closed, _): (.closed, .none)
        case (_, .close): (.closed, self == .idle ? .none : .cancelPass)
        case (.idle, .signal): (.sending, .startPass)
        case (.sending, .signal), (.sendingThenAgain, .signal): (.sendingThenAgain, .none)
        case (.sending, .passEnded), (.idle, .passEnded): (.idle, .none)
        case (.sendingThenAgain, .passEnded): (.sending, .startPass)
        }
    }
}

/// What happens to the background sender.
enum SenderEvent: Sendable, Hashable {
    /// An edit committed that the sender should push.
    case signal
    /// The running pass (one flush) ended, whatever its outcome.
    case passEnded
    /// The store is closing.
    case close
}

/// What the background sender does on a transition.
enum SenderAction: Sendable, Hashable {
    case none
    /// Run one pass (a flush of the whole queue).
    case startPass
    /// Cancel the running pass.
    case cancelPass
}
