/// What a Kinto pull cursor means: where the next pull starts, whether the collection
/// changed since, and the cursor a finished pull stores (Docs/Sync.md, cursor safety).
///
/// A cursor is a Kinto timestamp C in milliseconds. The next pull reads `_since = C − lookBack`,
/// so records committed late with a timestamp up to `lookBack` below C are read again. A pull
/// stores its bound B (the collection timestamp its first answer carried); when that answer
/// came at least twice the look-back after B, no write with a timestamp at or below B can
/// still be committing, so the window is closed and the pull stores C = B + lookBack: the next
/// pull starts at B itself. Only then can the collection's timestamp equal the next pull's
/// `_since`, and a pull sent with `If-None-Match: "<since>"` be answered 304 without a list.
enum KintoCursor {
    /// The `_since` of a pull from `cursor`: cursor − lookBack, at least 0; nil when there is
    /// no cursor or it is not a timestamp (the pull reads everything). Saturating: a hostile
    /// cursor or a huge look-back must not trap.
    static func since(_ cursor: String?, lookBack: Int64) -> Int64? {
        guard let value = cursor.flatMap({ Int64(KintoReply.unquote($0)) }) else { return nil }
        let (back, overflow) = value.subtractingReportingOverflow(lookBack)
        return overflow ? 0 : max(0, back)
    }

    /// The cursor a pull that ended with bound `bound` stores: `bound + lookBack` when the
    /// answer that learned the bound came at `answeredAt` (the server's clock, milliseconds;
    /// nil when unknown) at least `2 × lookBack` after the bound, else the bound itself.
    ///
    /// Why twice: one look-back for writes that took their timestamp at or below the bound to
    /// commit (the look-back's own assumption), one for the time between the server reading
    /// the records and stamping its answer's `Date`, and for the second the header rounds down.
    static func afterPull(bound: Int64, answeredAt: Int64?, lookBack: Int64) -> Int64 {
        guard lookBack > 0, let answeredAt else { return bound }
        let (window, overflow) = lookBack.multipliedReportingOverflow(by: 2)
        let (closed, overflow2) = bound.addingReportingOverflow(window)
        guard !overflow, !overflow2, answeredAt >= closed else { return bound }
        return bound + lookBack
    }
}
