extension Backend {
    /// Accepts every id: the server's answer to a push refuses one it does not take.
    public func validate(id: String, in collection: String) throws {}
}
