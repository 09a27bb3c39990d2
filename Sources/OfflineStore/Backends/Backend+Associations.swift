extension Backend {
    /// Fields of a collection's objects that reference objects of other collections,
    /// field → referenced collection. The engine sends a referenced create first, holds
    /// back edits that point at an uncreated object, and rewrites the references when a
    /// server assigns the real id. None by default.
    public func associations(of collection: String) -> [String: String] { [:] }

    /// Whether the server assigns ids in the collection. False by default: a create's answer
    /// naming another id is then a bad answer, never a reason to re-key.
    public func assignsIDs(in collection: String) -> Bool { false }
}
