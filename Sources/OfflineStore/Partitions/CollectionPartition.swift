/// Where a collection's data lives and with whom it is shared (RhoConnect's user, app and
/// local partitions). ``UserPartitions`` keeps each partition in its own place.
public enum CollectionPartition: String, Sendable, Hashable, CaseIterable {
    /// Per user: synced with the signed-in user's credentials, kept in that user's file,
    /// never shown to another user. The default.
    case user
    /// Shared by every user of the device: synced with whoever is signed in, kept in the
    /// app file, still there after logout and a login as someone else.
    case app
    /// Never synced: no request names the collection; kept in the user's file.
    case local
}

extension CollectionDescriptor {
    /// Describes a collection in a partition (``CollectionPartition``).
    ///
    /// ```swift
    /// CollectionDescriptor("catalog", partition: .app)
    /// ```
    public init(_ name: String, partition: CollectionPartition, fields: [FieldSchema]? = nil,
                updatePolicy: UpdatePolicy? = nil, conflictPolicy: ConflictPolicy = .preserveConflict) {
        self.init(name, fields: fields, updatePolicy: updatePolicy, conflictPolicy: conflictPolicy)
        self.partition = partition
    }

    /// The collection's partition: `.local` when ``isLocalOnly``, `.app` when shared by all
    /// users, otherwise `.user`. Only ``UserPartitions`` tells `.user` and `.app` apart; a
    /// single ``ObjectStore`` syncs both alike.
    public var partition: CollectionPartition {
        get { isLocalOnly ? .local : (isAppShared ? .app : .user) }
        set {
            isLocalOnly = newValue == .local
            isAppShared = newValue == .app
        }
    }
}
