extension Backend {
    /// The backend's one rule for every collection: calls ``validate(id:)``.
    public func validate(id: String, in collection: String) throws {
        try validate(id: id)
    }
}
