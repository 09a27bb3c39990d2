/// Whether an edit that awaits the server (``WriteMode/awaitingServer``) and attached a blob
/// is done: its call succeeds only once the server holds the blob too (pure).
enum AwaitedUploadRule {
    /// Where the attached blob stands after the edit's flush.
    enum Upload: Equatable {
        /// Uploaded (or the blob was replaced since: the later attach answers for its own).
        case done
        /// Not uploaded yet; `error` is why the last try stopped, if one was made.
        case pending(error: String?, status: Int?)
        /// The server refused it.
        case refused(error: String?, status: Int?)
    }

    /// The error the edit's call throws, or nil when it succeeds. `stop` is what stopped the
    /// flush, if anything (a pending upload's transport error or 5xx comes back here); a
    /// pending upload without one waits for a refresh (412) or for the next flush.
    static func failure(_ upload: Upload, place: String, stop: OfflineStoreError?) -> OfflineStoreError? {
        switch upload {
        case .done:
            return nil
        case .pending(let error, let status):
            return stop ?? OfflineStoreError(status == 412 ? .conflict : .server,
                "the blob of \(place) is not uploaded yet\(error.map { ": \($0)" } ?? ""); the next flush sends it", status: status)
        case .refused(let error, let status):
            return OfflineStoreError(.failedEntry,
                "the server refused the blob of \(place)\(error.map { ": \($0)" } ?? ""); see blobStatus, then retryBlobUpload or attach another",
                status: status)
        }
    }
}
