/// One line of the results table: our figure, the same-run baseline, and the target.
struct BenchResult: Sendable {
    /// The scenario, as the issue names it.
    var scenario: String
    /// Our figure, formatted with its unit.
    var ours: String
    /// The baseline figure measured in the same run, or "—".
    var baseline: String
    /// ours / baseline (higher is better) or another comparison, or "—".
    var ratio: String
    /// The target, in words.
    var target: String
    /// Whether the target is met; nil for a row that has no target (a measured limit).
    var passed: Bool?

    /// "pass", "FAIL", or "—" for a row without a target.
    var verdict: String { passed.map { $0 ? "pass" : "FAIL" } ?? "—" }

    /// The results as one Markdown table.
    static func table(_ results: [BenchResult]) -> String {
        var lines = [
            "| scenario | ours | baseline (same run) | ratio | target | pass/fail |",
            "|---|---|---|---|---|---|",
        ]
        for r in results {
            lines.append("| \(r.scenario) | \(r.ours) | \(r.baseline) | \(r.ratio) | \(r.target) | \(r.verdict) |")
        }
        return lines.joined(separator: "\n")
    }
}

/// Number formatting for the table.
enum Format {
    static func rate(_ perSecond: Double, _ unit: String) -> String {
        "\(grouped(Int(perSecond.rounded()))) \(unit)/s"
    }

    static func ratio(_ value: Double) -> String { fixed(value, 2) + "×" }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = abs(scaled % Int(scale))
        guard digits > 0 else { return String(whole) }
        let text = String(fraction)
        let sign = value < 0 && whole == 0 ? "-" : ""
        return sign + String(whole) + "." + String(repeating: "0", count: digits - text.count) + text
    }

    static func grouped(_ value: Int) -> String {
        let digits = Array(String(abs(value)))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return (value < 0 ? "-" : "") + out
    }

    static func megabytes(kilobytes: Int) -> String { fixed(Double(kilobytes) / 1024, 1) + " MB" }

    static func milliseconds(_ seconds: Double) -> String {
        seconds < 0.01 ? fixed(seconds * 1000, 3) + " ms" : fixed(seconds * 1000, 1) + " ms"
    }
}

/// Timing helpers.
enum Timing {
    /// Seconds taken by `body`.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return (clock.now - start).seconds
    }

    /// Seconds taken by an async `body`.
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        return (clock.now - start).seconds
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
