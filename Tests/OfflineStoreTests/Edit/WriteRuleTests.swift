import Testing
@testable import OfflineStore

/// How an edit meets the network (``WriteRoute``) and the background sender's states
/// (``SenderState``), as tables. No SQLite, no HTTP.
@Suite struct WriteRuleTests {
    // MARK: WriteRoute: one row per write mode, update policy and store state

    @Test(arguments: [
        // mode, policy, backend, forced offline, local-only → route
        (WriteMode.immediate, UpdatePolicy.queueIfOffline, true, false, false, WriteRoute.commitThenSend),
        (.immediate, .updateIfOnline, true, false, false, .commitThenAwaitServer),
        (.awaitingServer, .queueIfOffline, true, false, false, .commitThenAwaitServer),
        (.awaitingServer, .updateIfOnline, true, false, false, .commitThenAwaitServer),
        (.deferred, .queueIfOffline, true, false, false, .commit),
        (.deferred, .updateIfOnline, true, false, false, .pingThenCommit),
        (.immediate, .queueIfOffline, true, true, false, .commit),
        (.immediate, .updateIfOnline, true, true, false, .refuseOffline),
        (.awaitingServer, .queueIfOffline, false, false, false, .commit),
        (.deferred, .updateIfOnline, false, false, false, .refuseOffline),
        (.immediate, .updateIfOnline, true, false, true, .commit),
        (.awaitingServer, .updateIfOnline, false, true, true, .commit),
    ] as [(WriteMode, UpdatePolicy, Bool, Bool, Bool, WriteRoute)])
    func routes(mode: WriteMode, policy: UpdatePolicy, hasBackend: Bool, forcedOffline: Bool, localOnly: Bool,
                route: WriteRoute) {
        #expect(WriteRoute.decide(mode: mode, policy: policy, hasBackend: hasBackend, forcedOffline: forcedOffline,
                                  localOnly: localOnly) == route)
    }

    // MARK: SenderState: one row per state and event

    @Test(arguments: [
        (SenderState.idle, SenderEvent.signal, SenderState.sending, SenderAction.startPass),
        (.sending, .signal, .sendingThenAgain, .none),
        (.sendingThenAgain, .signal, .sendingThenAgain, .none),
        (.sending, .passEnded, .idle, .none),
        (.sendingThenAgain, .passEnded, .sending, .startPass),
        (.idle, .passEnded, .idle, .none),
        (.idle, .close, .closed, .none),
        (.sending, .close, .closed, .cancelPass),
        (.sendingThenAgain, .close, .closed, .cancelPass),
        (.closed, .signal, .closed, .none),
        (.closed, .passEnded, .closed, .none),
        (.closed, .close, .closed, .none),
    ] as [(SenderState, SenderEvent, SenderState, SenderAction)])
    func senderTransitions(from: SenderState, event: SenderEvent, to: SenderState, action: SenderAction) {
        let next = from.next(on: event)
        #expect(next.state == to)
        #expect(next.action == action)
    }
}
