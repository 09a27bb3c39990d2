import ArgumentParser

/// `offline-store`: an OfflineStore file from the shell — local edits, the queue, sync and conflicts.
///
/// Subcommands live in extensions, one file per group (`Commands/`); every command that
/// opens a store shares ``GlobalOptions`` through `@OptionGroup`.
@main
struct OfflineStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offline-store",
        abstract: "Edit an offline-first object store and sync it with a server.",
        discussion: """
            Every command prints JSON on stdout (sorted keys, one document per line) and
            errors on stderr as one line. Edits follow the store's write mode (init
            --deferred) and the collection's update policy.

            Exit codes:
              0   success
              1   other error: bad data, unknown collection, invalid id, storage
              2   check-server: a guarantee the resources file relies on fails
              3   object not found
              4   conflicts or failed entries remain after flush, refresh or sync
                  (or an immediate edit met a conflict or a rejection)
              5   the server cannot be reached (or timed out) by a command that
                  needed it: nothing changed, or the edit stays queued as the
                  update policy says
              6   authentication or authorization failed, or the environment
                  variable holding the secret is not set
              64  usage error: bad arguments, invalid JSON argument, bad duration

            The store file is --store PATH, else $OFFLINE_STORE, else
            ./offline-store.sqlite. See Docs/CLI.md.
            """,
        subcommands: [
            Init.self, CollectionGroup.self,
            Create.self, Update.self, Delete.self, Get.self, List.self, Queue.self,
            Flush.self, Refresh.self, Sync.self,
            Conflicts.self, Resolve.self,
            Failed.self, Retry.self, Rollback.self, Discard.self,
            Status.self, Reset.self,
            Inspect.self, CheckServer.self,
        ]
    )

    @OptionGroup var global: GlobalOptions
}
