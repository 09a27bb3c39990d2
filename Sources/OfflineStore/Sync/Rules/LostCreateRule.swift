/// Creates whose answer was lost, on a server that cannot recognise them when they are sent
/// again (``Backend/refreshesBeforeResendingCreates(in:)``): before such a create is resent,
/// its collection is refreshed once per flush, so a record the first send made is taken as
/// its answer (``SyncEngine/adoptAsCreateAnswer``) instead of being made twice (pure).
enum LostCreateRule {
    /// The collection to refresh before `batch` is sent, or nil: the first collection whose
    /// batch resends a create (sent before, answer never applied), whose backend asks for the
    /// refresh, and that this flush has not refreshed yet.
    static func collectionToRefresh(before batch: [QueueEntry], refreshes: (String) -> Bool,
                                    refreshed: Set<String>) -> String? {
        batch.first { entry in
            entry.kind == .create && entry.attempts > 0 && !refreshed.contains(entry.collection) && refreshes(entry.collection)
        }?.collection
    }
}
