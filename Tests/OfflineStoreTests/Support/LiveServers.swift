import Foundation
import Testing

/// Which tests need a live server, and the fast run without any (Docs/Testing.md).
///
/// A test that talks to Kinto (memory or PostgreSQL), the Rails app, or drives the headless
/// browser carries the ``Testing/Trait/liveServer`` trait (or, for the scenario suites that
/// run once per backend, takes ``BackendKind/available`` as arguments). `scripts/test` starts
/// every server and runs everything; `scripts/test --unit` starts none and sets
/// `OFFLINE_STORE_UNIT_ONLY=1`, which turns those tests off with the reason shown in the
/// output, so the in-memory suite runs alone in seconds. `ArchitectureTests` checks that every
/// test file that reaches a server is marked.
enum LiveServers {
    /// Whether this run is the unit run (`scripts/test --unit`).
    static let unitOnly = ProcessInfo.processInfo.environment["OFFLINE_STORE_UNIT_ONLY"] == "1"
}

extension Tag {
    /// Needs Kinto, the Rails or DRF app, the OData fixture, PostgreSQL or a browser.
    @Tag static var liveServer: Self
}

extension Trait where Self == ConditionTrait {
    /// Needs a live server: run by `scripts/test`, turned off (and reported so) by `scripts/test --unit`.
    static var liveServer: Self {
        .disabled(if: LiveServers.unitOnly, "needs a live server (Kinto, Rails, DRF, OData, PostgreSQL or a browser): scripts/test runs it")
    }
}

extension BackendKind {
    /// The backends a scenario runs against in this run: both, or only the in-memory one in the unit run.
    static var available: [BackendKind] { LiveServers.unitOnly ? [.memory] : allCases }
}
