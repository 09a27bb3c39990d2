import Foundation
import GRDB

/// Object changes: an `AsyncSequence` of created / updated / deleted ids per collection,
/// with their origin (RhoConnect `setObjectNotification`).
///
/// ```swift
/// for await change in store.changes(in: "todos") {
///     print(change.kind, change.id, change.origin)   // e.g. updated a server
/// }
/// ```
///
/// A change is what the app sees: the object's value (local copy, else persistent copy)
/// appeared, changed or disappeared. A server answer that confirms a local edit without
/// changing it is no change. Changes are sent after their transaction committed, in
/// commit order.
///
/// How: from the first observer on, temporary triggers on the writer connection log every
/// change of `objects` into a temporary table (changes of state or copies that leave the
/// value as it was are logged as "touched": they wake query and flag observations but are
/// not object changes), which each write drains before it
/// commits (so a rolled-back write reports nothing). Until the first observer there are no
/// triggers and no cost; once installed they stay until the store closes.
extension ObjectStore {
    /// The changes of one collection (or of every collection) from now on; ends when the
    /// store closes or the consumer stops.
    public func changes(in collection: String? = nil) -> AsyncStream<ObjectChange> {
        let stream = runtime.changes.subscribe { change in collection == nil || change.collection == collection }
        local.installChangeLog()
        return stream
    }
}
