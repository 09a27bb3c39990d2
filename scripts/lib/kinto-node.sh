# shellcheck shell=bash
# What every Kinto process the scripts start is configured with, shared by scripts/kinto
# (waitress's `threads`) and scripts/cluster (haproxy's per-node `maxconn`, which must equal it).

# Waitress worker threads per Kinto process (its default is 4; many test clients run in parallel).
KINTO_THREADS=8
