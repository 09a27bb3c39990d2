/// One fuzz target: a name, what it feeds, and its property function, which runs one input
/// through a parser and checks what came out.
///
/// The same function runs under libFuzzer (`offline-store-fuzz`, built by `scripts/fuzz`) and
/// in the test suite, which replays every committed corpus file and crash reproducer
/// (`Fixtures/fuzz/<name>/`), so a fixed crash stays fixed without libFuzzer.
package struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz` and the corpus folder use, e.g. `kinto-page`.
    package let name: String
    /// What the input is and which properties are checked, in one line.
    package let summary: String
    /// Runs one input; throws ``PropertyViolation`` when a property does not hold. Bad input
    /// is not a violation: a parser that refuses it with its typed error passes.
    package let check: @Sendable ([UInt8]) throws(PropertyViolation) -> Void
    /// libFuzzer flags the target runs with (before the caller's, which win).
    package let fuzzerFlags: [String]

    /// A target.
    package init(name: String, summary: String, fuzzerFlags: [String] = [],
                 check: @escaping @Sendable ([UInt8]) throws(PropertyViolation) -> Void) {
        self.name = name
        self.summary = summary
        self.fuzzerFlags = fuzzerFlags
        self.check = check
    }

    /// The flags of a target whose check waits for async work (``runBlocking(_:)``): the task it
    /// waited for is freed after the check returns, which libFuzzer's per-input leak check
    /// takes for a leak and examines on every input (about 60 inputs a second instead of 3,000).
    static let asyncFlags = ["-detect_leaks=0"]
}

extension FuzzTarget {
    /// Every target, in the order `scripts/fuzz --list` prints them.
    package static let all: [FuzzTarget] = [
        JSONFuzzing.target, CanonicalJSONFuzzing.target, KintoPageFuzzing.target,
        RESTPullFuzzing.target, RESTPushFuzzing.target, RESTHeaderFuzzing.target,
        InspectorRequestFuzzing.target, MigrationFuzzing.target, CLIWhereFuzzing.target,
    ]

    /// The target with this name, if any.
    package static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// A property that did not hold for an input: which one, and what was seen.
package struct PropertyViolation: Error, Sendable, CustomStringConvertible {
    /// The property, e.g. "serialized text parses back to the same value".
    package let property: String
    /// What was seen instead (shortened values).
    package let detail: String

    /// A violation of `property`.
    package init(_ property: String, _ detail: String = "") {
        self.property = property
        self.detail = detail
    }

    /// "property: detail".
    package var description: String { detail.isEmpty ? property : "\(property): \(detail)" }
}

/// Checks a property: throws ``PropertyViolation`` when `condition` is false.
@inline(__always)
func require(_ condition: Bool, _ property: @autoclosure () -> String,
             _ detail: @autoclosure () -> String = "") throws(PropertyViolation) {
    if !condition { throw PropertyViolation(property(), detail()) }
}

/// A value shortened for a violation's detail.
func shown(_ value: Any, limit: Int = 300) -> String {
    let text = String(describing: value)
    return text.count > limit ? String(text.prefix(limit)) + "…" : text
}
