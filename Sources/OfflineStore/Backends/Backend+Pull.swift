extension Backend {
    /// Fetches one page of changes as `request` asks, with every change in the returned page
    /// (those a streaming backend delivers as they arrive, then the rest, in order): for
    /// callers that want a page whole (tools, probes, tests).
    ///
    /// - Throws: the errors of ``pull(_:delivering:)``.
    public func pull(_ request: PullRequest) async throws -> PullPage {
        var delivered: [RemoteChange] = []
        var page = try await pull(request) { delivered += $0 }
        if !delivered.isEmpty { page.changes = delivered + page.changes }
        return page
    }
}
