/// What happens to a pending entry when a new edit of the same object arrives.
enum Coalescing: Equatable {
    /// The pending entry stays, now of this kind.
    case merge(into: QueueEntry.Kind)
    /// The pending entry vanishes and nothing is sent (create then delete).
    case cancel

    /// The coalescing table (Docs/Architecture.md, "Coalescing"):
    /// create+update → create, create+delete → nothing, update+update → update,
    /// update+delete → delete, delete+create → update (replace).
    /// Pairs that a consistent object history cannot produce give nil.
    static func combine(pending: QueueEntry.Kind, with incoming: QueueEntry.Kind) -> Coalescing? {
        switch (pending, incoming) {
        case (.create, .update): .merge(into: .create)
        case (.create, .delete): .cancel
        case (.update, .update): .merge(into: .update)
        case (.update, .delete): .merge(into: .delete)
        case (.delete, .create): .merge(into: .update)
        case (.create, .create), (.update, .create), (.delete, .update), (.delete, .delete): nil
        }
    }
}
