import Foundation
import Testing
@testable import OfflineStore

/// When a refresh may store its cursor (``ScopedCursorRule``): a whole collection with every
/// page; a scoped one only once the departure pull covered it, or at the end of a pull into a
/// store that held nothing of the collection.
@Suite struct ScopedCursorRuleTests {
    @Test(arguments: [
        (scoped: false, held: false, rule: ScopedCursorRule.everyPage, pages: true),
        (scoped: false, held: true, rule: .everyPage, pages: true),
        (scoped: true, held: false, rule: .lastPage, pages: false),
        (scoped: true, held: true, rule: .afterDepartures, pages: false),
    ])
    func theCursorWaitsForWhatCoversIt(_ row: (scoped: Bool, held: Bool, rule: ScopedCursorRule, pages: Bool)) {
        let rule = ScopedCursorRule.commit(scoped: row.scoped, heldObjects: row.held)
        #expect(rule == row.rule)
        #expect(rule.storesPageCursors == row.pages)
    }
}
