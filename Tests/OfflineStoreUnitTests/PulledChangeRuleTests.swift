@testable import OfflineStore
import Testing

/// The order in which a pulled change meets the recognisers of this store's own writes.
@Suite("Pulled change rule")
struct PulledChangeRuleTests {
    typealias Step = PulledChangeRule.Step
    typealias LocalEditStep = PulledChangeRule.LocalEditStep

    /// (creates whose answer was lost, watched creates) → the steps, in order.
    static let steps: [(Bool, Bool, [Step])] = [
        (false, false, [.remoteChange]),
        (true, false, [.createAnswer, .remoteChange]),
        (false, true, [.lateDelivery, .remoteChange]),
        (true, true, [.createAnswer, .lateDelivery, .remoteChange]),
    ]

    @Test(arguments: steps)
    func aPulledChangeMeetsTheRecognisersInOrder(_ unanswered: Bool, _ watched: Bool, _ expected: [Step]) {
        #expect(PulledChangeRule.steps(unansweredCreates: unanswered, watchedCreates: watched) == expected)
    }

    /// Whatever is watched: the usual way comes once, last (it always takes the change), and the
    /// answer to a lost create comes before a late delivery (its record has another id than the
    /// local object, so no later step would find the object).
    @Test(arguments: [false, true], [false, true])
    func theUsualWayIsLastAndTheCreateAnswerFirst(_ unanswered: Bool, _ watched: Bool) {
        let steps = PulledChangeRule.steps(unansweredCreates: unanswered, watchedCreates: watched)
        #expect(steps.last == .remoteChange)
        #expect(steps.filter { $0 == .remoteChange }.count == 1)
        #expect(steps.contains(.createAnswer) == unanswered)
        #expect(steps.contains(.lateDelivery) == watched)
        if let answer = steps.firstIndex(of: .createAnswer), let late = steps.firstIndex(of: .lateDelivery) {
            #expect(answer < late)
        }
    }

    /// (the tombstone agrees with the local edit) → the steps of a change meeting a local edit.
    static let localEditSteps: [(Bool, [LocalEditStep])] = [
        (false, [.sentWrite, .lateDeliveryConflict, .conflict]),
        (true, [.sentWrite, .agreeingTombstone, .lateDeliveryConflict, .conflict]),
    ]

    @Test(arguments: localEditSteps)
    func aChangeMeetingALocalEditIsOurOwnWriteFirstAndAConflictLast(_ agrees: Bool, _ expected: [LocalEditStep]) {
        #expect(PulledChangeRule.localEditSteps(tombstoneAgrees: agrees) == expected)
    }
}
