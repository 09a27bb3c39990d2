/// The next flush batch, marked in flight while the batch before it is on the wire and not
/// sent yet: ``SyncEngine`` starts it as soon as that batch's answers allow
/// (``FlushOverlapRule``), else withdraws it to the queue as it was (``QueueTransition/withdraw``).
/// Reading and marking it off the wait between two requests is what lets the next request go
/// out right after an answer.
struct StagedBatch: Sendable {
    let collection: String
    /// The collection's registration (its conflict policy and model), if it is registered.
    let descriptor: CollectionDescriptor?
    /// The entries marked in flight, with what each will send.
    let sent: [SentEntry]

    /// How many of its entries are of `collection` (a progress total counts them as still to answer).
    func count(in collection: String) -> Int { self.collection == collection ? sent.count : 0 }
}
