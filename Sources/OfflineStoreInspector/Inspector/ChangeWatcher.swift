import Foundation
import GRDB
import OfflineStore

/// Notices every commit to the store file, by this process or any other, and counts them
/// as a *generation* the page polls: when it moves, the page reloads what it shows.
///
/// SQLite's `PRAGMA data_version` on a connection of its own changes whenever another
/// connection (the store's writer, another process) commits. The watcher reads it every
/// ``interval``; it never writes and runs no SQL that the page sends.
final class ChangeWatcher: Sendable {
    /// How often the file is checked.
    let interval: Duration
    private let connection: DatabaseQueue
    private let history: QueueHistory
    private let store: ObjectStore
    private let state = Locked(State())

    private struct State {
        var version: Int?
        var generation = 0
    }

    /// Opens a read-only connection on the store's file.
    ///
    /// - Throws: ``InspectorError`` when the file cannot be opened.
    init(store: ObjectStore, history: QueueHistory, interval: Duration = .milliseconds(250)) throws {
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        configuration.label = "OfflineStoreInspector.watcher"
        do { connection = try DatabaseQueue(path: store.path, configuration: configuration) } catch {
            throw InspectorError(500, "cannot watch \(store.path): \(error)")
        }
        self.store = store
        self.history = history
        self.interval = interval
    }

    /// How many changes were seen since the inspector started.
    var generation: Int { state.withLock { $0.generation } }

    /// Checks the file once: when it changed, moves the generation and notes what the
    /// queue did. Returns whether it changed.
    @discardableResult
    func check() -> Bool {
        guard let version = try? connection.read({ db in try Int.fetchOne(db, sql: "PRAGMA data_version") }) else {
            return false
        }
        let changed = state.withLock { s -> Bool in
            defer { s.version = version }
            return s.version != version
        }
        guard changed else { return false }
        history.observe(store)
        state.withLock { $0.generation += 1 }
        return true
    }

    /// Checks every ``interval`` until the task is cancelled.
    func run() -> Task<Void, Never> {
        Task { [self] in
            while !Task.isCancelled {
                check()
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// Closes the connection.
    func close() { try? connection.close() }
}
