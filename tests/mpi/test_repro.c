/* Reproducible reduce bits (PMPI_LOGP_REPRODUCIBLE, run_repro.sh): every
 * rank contributes random doubles of many magnitudes, so that the sum's
 * bits depend on the order of association; the root reduces them
 * `calls` times (MPI_SUM, root 0) at each size and prints one digest of
 * the results and whether every call gave the same bits.
 *   mpiexec -n P test_repro [calls] [count ...]   (default 40 calls; 3000 and 70000 doubles) */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a over the bytes: a digest of the bits. */
static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* A value of magnitude 10^-6 .. 10^6, either sign, from a per-rank xorshift stream. */
static double draw(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    double u = (double)(*s >> 11) / 9007199254740992.0;
    static const double scale[] = {1e-6, 1e-3, 1.0, 1e3, 1e6};
    return (u - 0.5) * scale[(*s >> 3) % 5];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, calls = argc > 1 ? atoi(argv[1]) : 40;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int counts[8] = {3000, 70000}, ncounts = 2;
    if (argc > 2) {
        ncounts = 0;
        for (int i = 2; i < argc && ncounts < 8; i++)
            counts[ncounts++] = atoi(argv[i]);
    }
    uint64_t digest = 1469598103934665603ull;
    int stable = 1;
    for (int k = 0; k < ncounts; k++) {
        int n = counts[k];
        double *in = malloc(sizeof(double) * (size_t)n), *out = malloc(sizeof(double) * (size_t)n),
               *first = malloc(sizeof(double) * (size_t)n);
        if (!in || !out || !first)
            MPI_Abort(MPI_COMM_WORLD, 1);
        uint64_t s = 0x9e3779b97f4a7c15ull ^ (uint64_t)(rank + 1) * 0x100000001b3ull ^ (uint64_t)n;
        for (int i = 0; i < n; i++)
            in[i] = draw(&s);
        for (int c = 0; c < calls; c++) {
            memset(out, 0, sizeof(double) * (size_t)n);
            MPI_Reduce(in, out, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            if (rank == 0) {
                if (c == 0)
                    memcpy(first, out, sizeof(double) * (size_t)n);
                else if (memcmp(first, out, sizeof(double) * (size_t)n) != 0)
                    stable = 0;
            }
        }
        if (rank == 0)
            digest = fnv(first, sizeof(double) * (size_t)n, digest);
        free(in);
        free(out);
        free(first);
    }
    if (rank == 0)
        printf("repro digest=%016llx stable=%d\n", (unsigned long long)digest, stable);
    MPI_Finalize();
    return 0;
}
