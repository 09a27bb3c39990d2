import Foundation

/// The requests a pull's continuation carries (``PullContinuation``): the next page of each
/// key range the pull reads, already on the wire (one range, or two read at once;
/// ``ODataPullState``). The page a pull goes on with is taken out and awaited; the others are
/// carried into the next continuation, so that each request is sent once. Dropping the
/// continuation cancels the requests no later continuation carries.
final class ODataPagesAhead: Sendable {
    /// The requests, in the order the pull reads their ranges.
    let pages: [ODataPageAhead]

    init(_ pages: [ODataPageAhead]) {
        self.pages = pages
    }

    /// The request for `url`, if one was made, and the others.
    func taking(_ url: URL) -> (page: ODataPageAhead?, rest: ODataPagesAhead) {
        (page(for: url), ODataPagesAhead(pages.filter { $0.url != url }))
    }

    /// The request for `url`, if one was made.
    func page(for url: URL) -> ODataPageAhead? {
        pages.first { $0.url == url }
    }
}
