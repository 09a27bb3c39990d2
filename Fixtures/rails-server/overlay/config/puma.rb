# Puma for the OfflineStore test server: scripts/rails-server passes the bind address.
threads 1, 4
workers 0
