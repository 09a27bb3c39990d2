/// What a server writes into a record by itself.
extension Backend {
    /// None: the server returns a write as it was sent (Kinto adds only `last_modified`,
    /// which never reaches the copies).
    public func serverManagedFields(in collection: String) -> Set<String> { [] }
}
