/// The simulation's only source of chance: SplitMix64 from one seed, so that a seed
/// replays the same run on every machine and in every process (Swift's own generator and
/// hashing are seeded per process). Package-wide: the kill and hazard tests replay their
/// seeds with it too.
package struct SimulationRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose whole sequence follows from `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range` (not empty).
    mutating func int(in range: Range<Int>) -> Int {
        precondition(!range.isEmpty, "an empty range has no number")
        return range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool { int(in: 0..<100) < percent }

    /// One of `options` (not empty), each as likely as its weight says; zero weights never win.
    mutating func pick<T>(_ options: [(weight: Int, value: T)]) -> T? {
        let total = options.reduce(0) { $0 + max(0, $1.weight) }
        guard total > 0 else { return nil }
        var roll = int(in: 0..<total)
        for option in options where option.weight > 0 {
            if roll < option.weight { return option.value }
            roll -= option.weight
        }
        return nil
    }
}
