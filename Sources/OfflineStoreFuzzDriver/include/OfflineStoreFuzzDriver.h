#ifndef OFFLINE_STORE_FUZZ_DRIVER_H
#define OFFLINE_STORE_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// What libFuzzer calls with each input: returns 0.
typedef int (*OfflineStoreFuzzCallback)(const uint8_t *data, size_t size);

/// Whether this build links libFuzzer (`scripts/fuzz` builds with `-sanitize=fuzzer` and
/// `-Xcc -DFUZZING`); 0 in every other build.
int offline_store_fuzz_available(void);

/// Runs libFuzzer's driver (`LLVMFuzzerRunDriver`) over `argv`, libFuzzer's flags and corpus
/// directories, with `callback`, after putting `target` in the environment variable
/// `OFFLINE_STORE_FUZZ_TARGET`, so that the processes libFuzzer starts itself (`-merge=1`)
/// fuzz the same target. Returns what the driver returns, or -1 in a build without libFuzzer.
int offline_store_fuzz_run(const char *target, int argc, char **argv, OfflineStoreFuzzCallback callback);

#endif
