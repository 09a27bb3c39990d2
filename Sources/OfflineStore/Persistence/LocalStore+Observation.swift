import GRDB

/// Value observations of the store (GRDB's `ValueObservation`) and the two reads the
/// change watcher makes (``ExternalChangeWatcher``).
extension LocalStore {
    /// An observation of a value read from the store: the current value first, then a new
    /// one after every committed write that changed it (equal values are not repeated).
    /// With `objects`, the fetch reads `objects`, whose changes the change log announces
    /// (``installChangeLog()``, installed here). It ends when the store closes
    /// (``endObservations()``).
    func observe<Value: Sendable & Equatable>(readingObjects objects: Bool = true,
                                              _ fetch: @escaping @Sendable (Database) throws -> Value)
        -> StoreObservation<Value> {
        if objects { installChangeLog() }
        // GRDB releases an ended observation's closures on its own queue, some time after the
        // sequence ended: held weakly, the store does not wait for that to be freed. The
        // sequence's iterator holds the store while the app iterates.
        let guarded: @Sendable (Database) throws -> Value = { [weak self] db in
            guard let self, !self.isClosed else { throw OfflineStoreError(.closed, "the store was closed") }
            return try fetch(db)
        }
        return StoreObservation(values: counted(ValueObservation.tracking(guarded).removeDuplicates()).values(in: writer),
                                local: self)
    }

    /// Makes every running value observation fetch once more, after ``isClosed`` turned
    /// true: the fetch fails with `closed` and the observation ends (``StoreObservation``
    /// turns that into the end of the sequence). Called by ``close()`` before the database closes.
    func endObservations() {
        guard observers.valueObservers.withLock({ $0 }) > 0 else { return }
        try? writer.write { db in try db.notifyChanges(in: .fullDatabase) }
    }

    /// The observation, counted in ``StoreObservers/valueObservers`` from its start until it
    /// ends: cancelled when the consumer stops iterating (GRDB then stops observing the
    /// database) or failed. While any runs, ``ExternalChangeWatcher`` makes them fetch
    /// again when another process commits to the store's file.
    private func counted<Reducer: ValueReducer>(_ observation: ValueObservation<Reducer>)
        -> ValueObservation<ValueReducers.Trace<Reducer>> {
        // Weakly, as in observe(readingObjects:_:): once the store is gone there is nothing to count.
        observation.handleEvents(
            willStart: { [weak self] in
                guard let self else { return }
                observers.valueObservers.withLock { $0 += 1 }
                externalChangeWatchStarted()
            },
            didFail: { [weak self] _ in self?.observationEnded() },
            didCancel: { [weak self] in self?.observationEnded() })
    }

    /// A value observation ended (failed, or its consumer stopped iterating).
    private func observationEnded() {
        observers.valueObservers.withLock { $0 -= 1 }
        externalChangeWatchEnded()
    }

    /// How often other processes' commits are looked for; nil for an in-memory store, which no other process opens.
    private var externalChangeInterval: Duration? { location.isInMemory ? nil : configuration.externalChangeInterval }

    /// One more observation needs other processes' commits (the first starts the polling).
    func externalChangeWatchStarted() {
        let logger = configuration.logger
        observers.externalChanges.observationStarted(store: self, interval: externalChangeInterval) { logger.debug("\($0)") }
    }

    /// One observation ended (the last stops the polling).
    func externalChangeWatchEnded() {
        observers.externalChanges.observationEnded(interval: externalChangeInterval)
    }

    /// SQLite's `data_version` on the writer connection: it changes exactly when another
    /// connection committed to the file.
    func writerDataVersion() async throws -> Int {
        try await writer.writeWithoutTransaction { db in try Self.dataVersion(db) }
    }

    /// SQLite's `data_version` on the connection of `db`.
    static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }

    /// Another connection committed: every value observation fetches again, and commit
    /// streams hear of it.
    func announceExternalCommit() async throws {
        try await writer.write { db in try db.notifyChanges(in: .fullDatabase) }
        observers.commits.send(.otherConnection)
    }
}
