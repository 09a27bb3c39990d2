import Foundation

/// The numbers tests read from the environment (the sizes and seeds `scripts/torture` sets),
/// read one way: a value that is unset or not a number gives the default.
enum TestEnvironment {
    /// The variable `name` as a number, or `fallback`.
    static func number<N: FixedWidthInteger>(_ name: String, default fallback: N) -> N {
        ProcessInfo.processInfo.environment[name].flatMap { N($0) } ?? fallback
    }

    /// The seed every reliability workload replays from (`RELIABILITY_SEED`; Docs/Reliability.md).
    static var reliabilitySeed: UInt64 { number("RELIABILITY_SEED", default: 20_250_901) }
}
