/// Runs our side and the raw baseline alternately, in fresh temporary stores, and keeps
/// each side's best round: both see the same machine load, so their ratio is what counts.
struct Comparison {
    /// Seconds of our side's best round.
    var ours = Double.infinity
    /// Seconds of the baseline's best round.
    var baseline = Double.infinity

    /// Runs `rounds` rounds; each closure gets a fresh store path and returns the seconds it measured.
    static func run(rounds: Int, label: String,
                    ours: (String) async throws -> Double,
                    baseline: (String) throws -> Double) async throws -> Comparison {
        var result = Comparison()
        for round in 0..<rounds {
            let dir = try TemporaryDirectory("\(label)-\(round)")
            defer { dir.remove() }
            result.ours = min(result.ours, try await ours(dir.file("ours.sqlite")))
            result.baseline = min(result.baseline, try baseline(dir.file("raw.sqlite")))
        }
        return result
    }

    /// A table row for a throughput comparison of `count` items.
    func row(_ scenario: String, count: Int, unit: String, minimumRatio: Double,
             minimumRate: Double? = nil) -> BenchResult {
        let oursRate = Double(count) / ours
        let baseRate = Double(count) / baseline
        let ratio = oursRate / baseRate
        var target = "≥ \(Format.fixed(minimumRatio, 1))×"
        var passed = ratio >= minimumRatio
        if let minimumRate {
            target += " and ≥ \(Format.rate(minimumRate, unit))"
            passed = passed && oursRate >= minimumRate
        }
        return BenchResult(scenario: scenario, ours: Format.rate(oursRate, unit), baseline: Format.rate(baseRate, unit),
                           ratio: Format.ratio(ratio), target: target, passed: passed)
    }
}
