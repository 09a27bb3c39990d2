extension Backend {
    /// Fields of a collection's objects that reference objects of other collections,
    /// field → referenced collection. The engine sends a referenced create first, holds
    /// back edits that point at an uncreated object, and rewrites the references when a
    /// server assigns the real id. None by default.
    public func associations(of collection: String) -> [String: String] { [:] }
}
