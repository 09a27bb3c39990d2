/// One object of one collection, as a key.
struct ObjectKey: Hashable, Sendable {
    let collection: String
    let id: String
}
