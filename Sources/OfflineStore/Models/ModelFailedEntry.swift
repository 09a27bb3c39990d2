/// An edit of a model the server rejected, with the model and the server's reasons.
///
/// ```swift
/// for failed in try todos.failedEntries() {
///     print(failed.model?.title ?? "?", try failed.messages(for: \.title))   // ["is too short"]
/// }
/// ```
public struct ModelFailedEntry<M: SyncModel>: Sendable, Identifiable {
    /// The object's id.
    public var id: String { entry.objectID }
    /// The rejected queue entry (kind, HTTP status, server body, attempts).
    public let entry: QueueEntry
    /// The object as the app now sees it (nil for a rejected delete, or if it does not decode).
    public let model: M?
    /// The object when it does not decode as `M`.
    public let undecodable: UndecodableRecord?

    /// Why it failed: ``QueueEntry/Failure/forbidden`` when the user may not write it (403),
    /// else ``QueueEntry/Failure/rejected``.
    public var failure: QueueEntry.Failure { entry.failure ?? .rejected }

    /// The server's per-field validation messages.
    public var messages: ValidationMessages { entry.validationMessages }

    /// The server's reasons for one property (empty when none).
    ///
    /// - Throws: ``OfflineStoreError/Code/invalidFieldPath`` for a key path that is not a stored property.
    public func messages(for keyPath: PartialKeyPath<M>) throws -> [String] {
        messages[try ModelFields.name(of: keyPath)]
    }
}

extension ModelCollection {
    /// The collection's rejected edits in FIFO order, with their models.
    ///
    /// Act on them with the store's error actions: ``ObjectStore/retry(_:id:)`` (after
    /// fixing the model with ``save(_:policy:)``), ``ObjectStore/rollback(_:id:)`` or
    /// ``ObjectStore/discard(_:id:)``.
    ///
    /// - Throws: a storage error.
    public func failedEntries() throws -> [ModelFailedEntry<M>] {
        try store.failedEntries(collection: name).map { entry in
            var model: M?
            var undecodable: UndecodableRecord?
            if let value = try json.find(entry.objectID) {
                do throws(UndecodableRecord) { model = try decodeOrReport(value, id: entry.objectID) } catch { undecodable = error }
            }
            return ModelFailedEntry(entry: entry, model: model, undecodable: undecodable)
        }
    }

    /// Sends a rejected edit of this model again with the next flush.
    ///
    /// - Throws: as ``ObjectStore/retry(_:id:)``.
    public func retry(_ failed: ModelFailedEntry<M>) throws {
        try store.retry(name, id: failed.id)
    }
}
