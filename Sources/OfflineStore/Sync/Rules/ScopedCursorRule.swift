/// When a refresh may store its pull cursor (pure; Docs/Sync.md, "Scoped collections and
/// the cursor").
///
/// A cursor C promises that every change at or below C was read. A whole collection's pull
/// lists tombstones, so each page's cursor keeps that promise. A scoped pull does not: Kinto's
/// filtered pages list neither tombstones nor records that stopped matching, and only the
/// departure pull (every change since the previous cursor, a few fields each) sees those. So
/// a scoped collection's cursor may move only once a departure pull that started after the
/// scoped pull's bound was taken has read every page since the previous cursor; a refresh that
/// stops before then keeps the previous cursor, and the next one reads again from there
/// (re-reads change nothing). The one exception: a store that held no object of the collection
/// when the refresh began has nothing a deletion or a departure could remove, so the scoped
/// pull's last cursor (its bound) may be stored as it ends; a page in between never is.
enum ScopedCursorRule: Equatable, Sendable {
    /// Every page stores its cursor with its last change (a whole collection).
    case everyPage
    /// Only the last page's cursor, once the last page is applied.
    case lastPage
    /// Only the last page's cursor, once the departure pull read its last page.
    case afterDepartures

    /// The rule for a refresh of a collection that is `scoped` (a sync scope with terms)
    /// and whose store held objects of it when the refresh began (`heldObjects`).
    static func commit(scoped: Bool, heldObjects: Bool) -> ScopedCursorRule {
        guard scoped else { return .everyPage }
        return heldObjects ? .afterDepartures : .lastPage
    }

    /// Whether a page's own cursor is stored with it (in its last transaction).
    var storesPageCursors: Bool { self == .everyPage }
}
