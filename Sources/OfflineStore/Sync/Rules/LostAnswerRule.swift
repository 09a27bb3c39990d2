/// Writes whose answer was lost (a timeout, a broken connection, a crash while the request was
/// on the wire): the server may have applied them. Two pure decisions recognise such a write
/// instead of making it twice or taking it for a conflict.
///
/// Whether a server copy is the write this store sent (``isSentWrite(_:sent:serverManaged:)``):
/// the copy equals the payload that was sent, apart from the fields the server writes itself
/// (``BackendTraits/serverManagedFields``: a REST resource's timestamps, for example; none on
/// Kinto, whose `last_modified` never reaches the copies).
///
/// | server copy vs. sent | managed fields | the sent write |
/// |---|---|---|
/// | equal | — | yes |
/// | differs only in managed fields (a new `updatedAt`) | the differing ones | yes |
/// | lacks a field that was sent, or holds an unmanaged field that was not sent | any | no |
/// | another value of an unmanaged field | any | no |
///
/// Which collection a flush refreshes before resending a create whose answer was lost, on a
/// server that cannot recognise it when it is sent again
/// (``BackendTraits/refreshesBeforeResendingCreates``) (``collectionToRefresh(before:refreshes:refreshed:)``):
/// a record the first send made is then taken as its answer (``SyncEngine/adoptAsCreateAnswer``)
/// instead of being made twice.
enum LostAnswerRule {
    /// Whether `record` is the write that sent `payload`.
    static func isSentWrite(_ record: JSONValue?, sent payload: JSONValue?, serverManaged: Set<String>) -> Bool {
        guard let record, let payload else { return record == nil && payload == nil }
        guard !serverManaged.isEmpty, let server = record.objectValue, let sent = payload.objectValue else {
            return record == payload
        }
        return server.filter { !serverManaged.contains($0.key) } == sent.filter { !serverManaged.contains($0.key) }
    }

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
