// Public names retired when the code took one name per idea (Docs/Architecture.md,
// "Glossary"): each old name forwards to the new one, so an app's code still compiles.

/// The former name of ``LateDelivery``.
@available(*, deprecated, renamed: "LateDelivery")
public typealias LateWrite = LateDelivery

extension SyncReport {
    /// The former name of ``lateDeliveriesUndone``.
    @available(*, deprecated, renamed: "lateDeliveriesUndone")
    public var lateWritesUndone: Int {
        get { lateDeliveriesUndone }
        set { lateDeliveriesUndone = newValue }
    }
}
