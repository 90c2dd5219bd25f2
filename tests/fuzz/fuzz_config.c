/* libFuzzer target for the tuning-file parser and resolution. */
#include <stddef.h>
#include <stdint.h>

#include "../../src/config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    logp_config_t cfg;
    char err[640];
    if (logp_config_parse(&cfg, (const char *)data, size, "fuzz.conf", err, sizeof err) == 0) {
        logp_resolved_t r;
        logp_comm_facts_t f[3] = {{1, "", 0}, {64, "MPI_COMM_WORLD", 1}, {100000, "x", 0}};
        for (int i = 0; i < 3; i++)
            logp_config_resolve(&cfg, &f[i], &r);
        logp_config_free(&cfg);
    }
    return 0;
}
