import ArgumentParser
import Foundation
import OfflineStore
import OfflineStoreCommandLine

/// One flush, refresh or sync, and what it left, as the sync commands print and exit with.
struct SyncInvocation {
    enum Kind: String {
        case flush, refresh, sync, fullRefresh = "refresh --full"
    }

    /// What a run did and what is left.
    struct Outcome {
        var report: SyncReport
        /// Why the run stopped early or could not run.
        var failure: CLIError?
        /// How long the server asked us to wait, when it did.
        var retryAfter: Duration?
        /// With `--budget`: whether the run stopped at a safe point to stay within it.
        var stoppedAtBudget: Bool?

        /// 0, 4 (conflicts or failed entries remain), 6 (the server refused a collection; the
        /// others were synced) or the failure's code.
        var exitCode: Int32 {
            if let failure { return failure.exitCode }
            if !report.refused.isEmpty { return ExitStatus.unauthorized }
            return report.conflicts > 0 || report.failed > 0 ? ExitStatus.unresolved : ExitStatus.success
        }

        var json: JSONValue {
            var json = Shape.report(report, error: failure?.message)
            if let stoppedAtBudget { json["stoppedAtBudget"] = .bool(stoppedAtBudget) }
            return json
        }
    }

    /// Runs one step, with a live progress line on stderr when it is a terminal; a sync with
    /// a `budget` stops at a safe point before it ends.
    static func perform(_ kind: Kind, on store: ObjectStore, budget: Duration? = nil) async -> Outcome {
        let progress = ProgressLine.start(kind.rawValue, store: store)
        var outcome: Outcome
        do {
            if kind == .sync, let budget {
                let result = try await store.sync(within: budget)
                outcome = Outcome(report: result.report, stoppedAtBudget: result.stoppedAtBudget)
            } else {
                let report = switch kind {
                case .flush: try await store.flush()
                case .refresh: try await store.refresh()
                case .fullRefresh: try await store.refresh(full: true)
                case .sync: try await store.sync()
                }
                outcome = Outcome(report: report)
            }
        } catch let interrupted as OfflineStoreError where interrupted.report != nil {
            outcome = Outcome(report: interrupted.report ?? SyncReport(), failure: CLIError.describe(interrupted),
                              retryAfter: interrupted.retryAfter)
        } catch {
            outcome = Outcome(report: (try? leftCounts(store)) ?? SyncReport(), failure: CLIError.describe(error),
                              retryAfter: (error as? OfflineStoreError)?.retryAfter)
        }
        if budget != nil, outcome.stoppedAtBudget == nil { outcome.stoppedAtBudget = false }
        await progress?.finish()
        return outcome
    }

    /// An empty report with the store's "left" counts (conflicts, failed, pending).
    static func leftCounts(_ store: ObjectStore) throws -> SyncReport {
        var report = SyncReport()
        report.conflicts = try store.conflicts().count
        report.failed = try store.queueCount(state: .failed)
        report.pending = try store.queueCount() - report.failed
        return report
    }

    /// `flush`, `refresh`, `sync`: one run, its report on stdout, the documented exit code.
    ///
    /// SIGINT or SIGTERM cancels the run: it stops at its next safe point (an answer already
    /// on its way is awaited and settled, nothing more is sent), prints what it did and
    /// exits 130. A second signal ends the process at once (the store is crash-safe).
    static func once(_ kind: Kind, _ options: GlobalOptions, budget: Duration? = nil) async throws {
        try await StoreSession.with(options, server: .required) { session in
            let stop = StopSignal()
            stop.installHandlers()
            let store = session.store
            if store.isSyncing {
                Output.note("another process is syncing this store; waiting for its run to finish (SIGINT stops)")
            }
            let run = Task { await perform(kind, on: store, budget: budget) }
            let canceller = Task {
                await stop.wait()
                if stop.isRequested { run.cancel() }
            }
            let outcome = await run.value
            canceller.cancel()
            Output.line(outcome.json)
            if let failure = outcome.failure { throw failure }
            for refusal in outcome.report.refused {
                Output.note("\(kind.rawValue): the server refused collection \"\(refusal.collection)\" (\(refusal.direction.rawValue)): "
                    + refusal.message)
            }
            if outcome.exitCode == ExitStatus.unauthorized { throw ExitCode(outcome.exitCode) }
            if outcome.exitCode == ExitStatus.unresolved {
                let (conflicts, failed) = (outcome.report.conflicts, outcome.report.failed)
                var left: [String] = []
                if conflicts > 0 { left.append("\(conflicts) conflicted object\(conflicts == 1 ? "" : "s") (`offline-store conflicts`)") }
                if failed > 0 { left.append("\(failed) failed entr\(failed == 1 ? "y" : "ies") (`offline-store failed`)") }
                Output.note("\(kind.rawValue) finished; left to resolve: " + left.joined(separator: ", "))
                throw ExitCode(outcome.exitCode)
            }
        }
    }
}
