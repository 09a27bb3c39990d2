/// What Kinto's answers to a collection's preparation mean (pure, no I/O). Kinto answers a
/// `PUT … If-None-Match: *` on an existing object with 412 whatever the user's permissions,
/// and shows an object's `permissions` only to a user who may write it directly; write on
/// the bucket is inherited by its collections. So: 201 means created (writable); after a
/// 412 or 403, a `GET` of the collection tells: 403/404 not usable, 200 with permissions
/// writable, 200 without them writable only if the bucket's `GET` shows permissions.
enum KintoAccessRule: Equatable, Sendable {
    /// The collection is usable with this access.
    case access(CollectionAccess)
    /// The user may neither create nor read the collection.
    case refused
    /// Another failure: the answer's own error (401, 5xx, …).
    case failed

    /// Whether the collection step may follow the bucket's `PUT`: created, existing (412),
    /// or refused (403: another user's bucket, or bucket creation not allowed; the
    /// collection's own answers then decide).
    static func bucketUsable(status: Int) -> Bool {
        (200..<300).contains(status) || status == 412 || status == 403
    }

    /// Whether the collection `PUT`'s answer needs the collection read to decide.
    static func needsRead(createStatus: Int) -> Bool { createStatus == 412 || createStatus == 403 }

    /// The access from the collection `PUT`'s status, the collection `GET`'s status and
    /// whether it showed permissions, and whether the bucket's `GET` showed permissions
    /// (nil when not asked).
    static func access(createStatus: Int, readStatus: Int?, showsPermissions: Bool = false,
                       bucketShowsPermissions: Bool? = nil) -> KintoAccessRule {
        if (200..<300).contains(createStatus) { return .access(.readWrite) }
        guard needsRead(createStatus: createStatus) else { return .failed }
        switch readStatus {
        case (200..<300)?:
            return .access(showsPermissions || bucketShowsPermissions == true ? .readWrite : .readOnly)
        case 403?, 404?: return .refused
        default: return .failed
        }
    }
}
