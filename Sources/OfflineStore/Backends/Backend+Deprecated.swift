/// The requirements a backend had before one pull requirement and one traits value replaced
/// them (Docs/Architecture.md, "Glossary"): forwarders, so that code calling them compiles.
/// A backend that implemented them implements ``Backend/pull(_:delivering:)`` and
/// ``Backend/traits(of:)`` instead.
extension Backend {
    /// Fetches one page of changes since `cursor` (nil: everything).
    @available(*, deprecated, message: "use pull(_:) with a PullRequest")
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?) async throws -> PullPage {
        try await pull(PullRequest(collection: collection, cursor: cursor, continuation: continuing))
    }

    /// Fetches one page of changes since `cursor`, deletions left out where that is cheaper.
    @available(*, deprecated, message: "use pull(_:) with a PullRequest whose hints.needsDeletions is false")
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                     includingDeletions: Bool) async throws -> PullPage {
        try await pull(PullRequest(collection: collection, cursor: cursor, continuation: continuing,
                                   hints: .init(needsDeletions: includingDeletions)))
    }

    /// Fetches one page of the changes since `cursor` of the records matching `scope`.
    @available(*, deprecated, message: "use pull(_:) with a PullRequest with a scope")
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                     scope: ServerQuery) async throws -> PullPage {
        try await pull(PullRequest(collection: collection, cursor: cursor, continuation: continuing, scope: scope)).keeping(scope)
    }

    /// Fetches one page of every change since `cursor` with only `fields` of each record.
    @available(*, deprecated, message: "use pull(_:) with a PullRequest whose hints.fields are set")
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?,
                     fields: [String]) async throws -> PullPage {
        try await pull(PullRequest(collection: collection, cursor: cursor, continuation: continuing, hints: .init(fields: fields)))
    }

    /// Fetches one page of changes, handing them to `deliver` as they arrive.
    @available(*, deprecated, message: "use pull(_:delivering:) with a PullRequest")
    public func pull(collection: String, since cursor: String?, continuing: PullContinuation?, includingDeletions: Bool,
                     scope: ServerQuery?, delivering deliver: ([RemoteChange]) async throws -> Void) async throws -> PullPage {
        try await pull(PullRequest(collection: collection, cursor: cursor, continuation: continuing, scope: scope,
                                   hints: .init(needsDeletions: includingDeletions)), delivering: deliver)
    }

    /// ``BackendTraits/associations`` of ``traits(of:)``.
    @available(*, deprecated, message: "use traits(of:).associations")
    public func associations(of collection: String) -> [String: String] { traits(of: collection).associations }

    /// ``BackendTraits/assignsIDs`` of ``traits(of:)``.
    @available(*, deprecated, message: "use traits(of:).assignsIDs")
    public func assignsIDs(in collection: String) -> Bool { traits(of: collection).assignsIDs }

    /// ``BackendTraits/sweepsDeletions`` of ``traits(of:)``.
    @available(*, deprecated, message: "use traits(of:).sweepsDeletions")
    public func sweepsDeletions(in collection: String) -> Bool { traits(of: collection).sweepsDeletions }

    /// ``BackendTraits/refreshesBeforeResendingCreates`` of ``traits(of:)``.
    @available(*, deprecated, message: "use traits(of:).refreshesBeforeResendingCreates")
    public func refreshesBeforeResendingCreates(in collection: String) -> Bool {
        traits(of: collection).refreshesBeforeResendingCreates
    }

    /// ``BackendTraits/serverManagedFields`` of ``traits(of:)``.
    @available(*, deprecated, message: "use traits(of:).serverManagedFields")
    public func serverManagedFields(in collection: String) -> Set<String> { traits(of: collection).serverManagedFields }
}

extension Backend {
    /// Checks an id against the backend's rule for every collection: ``validate(id:in:)``
    /// with no collection (a backend whose rules differ per collection may refuse that).
    @available(*, deprecated, message: "use validate(id:in:)")
    public func validate(id: String) throws { try validate(id: id, in: "") }
}
