import Foundation

/// The next page of a pull, already asked for while the engine applies the page before
/// (``PullContinuation`` carries it in ``ODataPagesAhead``): the service's time for the next
/// page overlaps the store's time for this one. The request is cancelled when the last
/// continuation carrying it is dropped.
final class ODataPageAhead: Sendable {
    /// The page's URL, as the continuation leads to it.
    let url: URL
    private let task: Task<ODataReply, any Error>

    init(url: URL, answer task: Task<ODataReply, any Error>) {
        self.url = url
        self.task = task
    }

    deinit { task.cancel() }

    /// The page's answer (the same for every caller: the body is read whole).
    func answer() async throws -> ODataReply {
        try await withTaskCancellationHandler { try await task.value } onCancel: { [task] in task.cancel() }
    }
}
