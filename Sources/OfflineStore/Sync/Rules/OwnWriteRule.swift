/// Whether a server copy is this store's own write coming back (pure): the copy equals the
/// payload that was sent, apart from the fields the server writes itself
/// (``Backend/serverManagedFields(in:)``: a REST resource's timestamps, for example; none on
/// Kinto, whose `last_modified` never reaches the copies).
///
/// | server copy vs. sent | managed fields | own write |
/// |---|---|---|
/// | equal | — | yes |
/// | differs only in managed fields (a new `updatedAt`) | the differing ones | yes |
/// | lacks a field that was sent, or holds an unmanaged field that was not sent | any | no |
/// | another value of an unmanaged field | any | no |
enum OwnWriteRule {
    /// Whether `record` is the write that sent `payload`.
    static func isOwnWrite(_ record: JSONValue?, sent payload: JSONValue?, serverManaged: Set<String>) -> Bool {
        guard let record, let payload else { return record == nil && payload == nil }
        guard !serverManaged.isEmpty, let server = record.objectValue, let sent = payload.objectValue else {
            return record == payload
        }
        return server.filter { !serverManaged.contains($0.key) } == sent.filter { !serverManaged.contains($0.key) }
    }
}
