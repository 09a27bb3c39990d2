/// Runs our side, the raw baseline and (optionally) the required-work floor alternately, in
/// fresh temporary stores, and keeps each side's best round: all see the same machine load,
/// so their ratios are what counts.
struct Comparison {
    /// Seconds of our side's best round.
    var ours = Double.infinity
    /// Seconds of the baseline's best round.
    var baseline = Double.infinity
    /// Seconds of the required-work floor's best round; infinity when it was not measured.
    var floor = Double.infinity

    /// Runs `rounds` rounds; each closure gets a fresh store path and returns the seconds it measured.
    static func run(rounds: Int, label: String,
                    ours: (String) async throws -> Double,
                    baseline: (String) throws -> Double,
                    floor: ((String) throws -> Double)? = nil) async throws -> Comparison {
        var result = Comparison()
        for round in 0..<rounds {
            let dir = try TemporaryDirectory("\(label)-\(round)")
            defer { dir.remove() }
            result.ours = min(result.ours, try await ours(dir.file("ours.sqlite")))
            result.baseline = min(result.baseline, try baseline(dir.file("raw.sqlite")))
            if let floor { result.floor = min(result.floor, try floor(dir.file("floor.sqlite"))) }
        }
        return result
    }

    /// A table row for a throughput comparison of `count` items.
    func row(_ scenario: String, count: Int, unit: String, minimumRatio: Double,
             minimumRate: Double? = nil) -> BenchResult {
        let oursRate = Double(count) / ours
        let baseRate = Double(count) / baseline
        let ratio = oursRate / baseRate
        // One decimal unless the target needs two (0.85, 0.95).
        let digits = abs((minimumRatio * 10).rounded() - minimumRatio * 10) < 1e-9 ? 1 : 2
        var target = "≥ \(Format.fixed(minimumRatio, digits))×"
        var passed = ratio >= minimumRatio
        if let minimumRate {
            target += " and ≥ \(Format.rate(minimumRate, unit))"
            passed = passed && oursRate >= minimumRate
        }
        return BenchResult(scenario: scenario, ours: Format.rate(oursRate, unit), baseline: Format.rate(baseRate, unit),
                           ratio: Format.ratio(ratio), target: target, passed: passed)
    }

    /// A row without a target: ours against the required-work floor, whose own rate is given
    /// as a multiple of the baseline's, so the floor shows how far any engine can go.
    func floorRow(_ scenario: String, count: Int, unit: String) -> BenchResult {
        let oursRate = Double(count) / ours
        let floorRate = Double(count) / floor
        let baseRate = Double(count) / baseline
        return BenchResult(scenario: scenario, ours: Format.rate(oursRate, unit),
                           baseline: "floor " + Format.rate(floorRate, unit) + " = " + Format.ratio(floorRate / baseRate) + " baseline",
                           ratio: Format.ratio(oursRate / floorRate) + " floor", target: "— (measured limit)", passed: nil)
    }
}
