# Puma for the OfflineStore test server: scripts/rails-server passes the bind address.
#
# One thread. The app's only database is SQLite through Debian's sqlite3 gem 1.4, whose
# busy timeout sleeps inside SQLite while holding Ruby's global VM lock: with several puma
# threads, a request waiting for the write lock stops the very thread that holds it, waits
# out the whole timeout and answers 500 "database is locked" (sparklemotion/sqlite3-ruby#261,
# rails/rails#50370). Under a loaded CI run that failed Rails tests at random whatever the
# timeout (5 s: a create waited 5.3 s; 30 s: requests waited 31 s). A deferred transaction
# that reads and then writes can also get SQLITE_BUSY at once, without the busy handler.
# The gem runs every SQLite call with that lock held, so more threads bought no parallelism
# anyway; one thread means one connection, and SQLite's lock is never contended.
threads 1, 1
workers 0
