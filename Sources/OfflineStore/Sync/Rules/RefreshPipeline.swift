/// The page pipeline of one pull as a state machine (pure, no I/O): the refresh feeds it what
/// arrived (``delivered(_:)``, ``pageEnded(_:)``) and does what it answers, in order
/// (``SyncEngine/pullPages``).
///
/// Changes arrive in groups while a page downloads (``Backend/pull(_:delivering:)``), then
/// the page ends with its cursor and the way to the next page. They are applied in
/// transactions of at most ``chunkSize`` changes, one transaction at a time and in order, each
/// one running while the next changes are read:
///
/// - a chunk is applied only once more has arrived after it, so that a page's last changes
///   (a whole page of ``chunkSize`` included) are applied with the page's cursor, in the
///   page's last transaction: the cursor never moves ahead of a change;
/// - before a transaction starts, the one under way ends (``Action/awaitTransaction``); so
///   nothing is read further until the chunk before the one just read is applied;
/// - a page's progress is reported once its last transaction has ended;
/// - the next page is asked once the page's last transaction has started, so that it runs
///   while the next page is asked and read; the pull ends once no transaction is under way.
///
/// Every cut of changes into transactions is ``chunks(of:)``: the pipeline's, and the
/// departure pull's tombstones.
struct RefreshPipeline: Sendable {
    /// How many changes one refresh transaction applies.
    static let chunkSize = 500

    /// What the pull does next.
    enum Action: Sendable, Equatable {
        /// Wait for the transaction under way to end (and add what it did to the report).
        case awaitTransaction
        /// Apply these changes, in transactions of ``chunkSize`` (``chunks(of:)``), the cursor
        /// (when not nil) with the last, in a task of their own while the pull goes on.
        case apply([RemoteChange], cursor: String?)
        /// Report a page of `count` changes (`total`: the server's announced total, if any).
        case reportProgress(count: Int, total: Int?)
        /// Ask the page this continuation leads to.
        case fetch(PullContinuation)
        /// The pull is over: every transaction ended.
        case finish
    }

    /// A page whose last transaction is under way: what its progress report says.
    private struct PageProgress: Sendable {
        let count: Int
        let total: Int?
    }

    /// Whether a page's cursor is stored with its last transaction (not for a scope catch-up,
    /// nor a scoped pull whose cursor waits for its departure pull).
    let storesCursor: Bool
    /// Whether the version each id was brought at is kept (``ids``): only where a departure
    /// pull or a sweep needs them.
    let collectsIDs: Bool

    /// Changes delivered and held for a later transaction.
    private(set) var held: [RemoteChange] = []
    /// Changes of the current page already handed to a transaction.
    private(set) var arrived = 0
    /// Whether a transaction is under way (an ``Action/apply(_:cursor:)`` answered and no
    /// ``Action/awaitTransaction`` after it).
    private(set) var underWay = false
    /// The progress of the page whose last transaction is under way.
    private var pageUnderWay: PageProgress?
    /// Whether any change was delivered (a first page that failed after that is not asked again).
    private(set) var handedOver = false
    /// How many changes the pull brought.
    private(set) var count = 0
    /// The version each id was brought at, when ``collectsIDs``.
    private(set) var ids: [String: String] = [:]
    /// The last page's cursor (nil when it had none: the stored one stays).
    private(set) var lastCursor: String?
    /// Whether a page said the pull started over from the beginning
    /// (``PullPage/restartedFromTheBeginning``).
    private(set) var restarted = false

    init(storesCursor: Bool, collectsIDs: Bool) {
        self.storesCursor = storesCursor
        self.collectsIDs = collectsIDs
    }

    /// The changes cut into transactions of at most ``chunkSize``, in order.
    static func chunks(of changes: [RemoteChange]) -> [ArraySlice<RemoteChange>] {
        stride(from: 0, to: changes.count, by: chunkSize).map { changes[$0..<min(changes.count, $0 + chunkSize)] }
    }

    /// Changes arrived while their page downloads.
    mutating func delivered(_ changes: [RemoteChange]) -> [Action] {
        handedOver = true
        held += changes
        var actions: [Action] = []
        while held.count > Self.chunkSize {
            let chunk = Array(held.prefix(Self.chunkSize))
            held.removeFirst(Self.chunkSize)
            actions += startTransaction(chunk, cursor: nil)
            arrived += chunk.count
            collect(chunk)
        }
        return actions
    }

    /// A page ended: the changes it did not deliver before, its cursor, its continuation, its total.
    mutating func pageEnded(_ page: PullPage) -> [Action] {
        let changes = held.isEmpty ? page.changes : held + page.changes
        held = []
        if page.restartedFromTheBeginning { restarted = true }
        if page.next == nil { lastCursor = page.cursor }
        var actions = startTransaction(changes, cursor: storesCursor ? page.cursor : nil)
        pageUnderWay = PageProgress(count: arrived + changes.count, total: page.total)
        collect(changes)
        count += arrived + changes.count
        arrived = 0
        if let next = page.next {
            actions.append(.fetch(next))
        } else {
            actions += endTransaction()
            actions.append(.finish)
        }
        return actions
    }

    /// The pull stopped (an error, a cancellation): the transaction under way ends first.
    mutating func stopped() -> [Action] {
        held = []
        pageUnderWay = nil
        guard underWay else { return [] }
        underWay = false
        return [.awaitTransaction]
    }

    /// Ends the transaction under way, if any, then reports its page when it was a page's last.
    private mutating func endTransaction() -> [Action] {
        guard underWay else { return [] }
        underWay = false
        guard let page = pageUnderWay else { return [.awaitTransaction] }
        pageUnderWay = nil
        return [.awaitTransaction, .reportProgress(count: page.count, total: page.total)]
    }

    private mutating func startTransaction(_ changes: [RemoteChange], cursor: String?) -> [Action] {
        let actions = endTransaction()
        underWay = true
        return actions + [.apply(changes, cursor: cursor)]
    }

    private mutating func collect(_ changes: [RemoteChange]) {
        guard collectsIDs else { return }
        for change in changes { ids[change.id] = change.version }
    }
}
