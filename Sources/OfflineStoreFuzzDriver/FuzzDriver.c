#include "OfflineStoreFuzzDriver.h"

#include <stdlib.h>

#ifdef FUZZING
// libFuzzer's entry for programs that have their own `main` (SwiftPM names the executable's
// entry point itself, so libFuzzer's `main` is never the one that runs).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif

int offline_store_fuzz_available(void) {
#ifdef FUZZING
    return 1;
#else
    return 0;
#endif
}

int offline_store_fuzz_run(const char *target, int argc, char **argv, OfflineStoreFuzzCallback callback) {
#ifdef FUZZING
    if (setenv("OFFLINE_STORE_FUZZ_TARGET", target, 1) != 0) return -1;
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
#else
    (void)target;
    (void)argc;
    (void)argv;
    (void)callback;
    return -1;
#endif
}
