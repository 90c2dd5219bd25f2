/* An integer bucket sort with the communication of the NAS Parallel
 * Benchmarks' IS, written for this repository from IS's published
 * description (not NPB's code): TOTAL keys in [0, MAX_KEY), each the
 * mean of four uniform numbers times MAX_KEY (a bell shape, so buckets
 * are uneven), spread evenly over the ranks; ITERS ranking iterations,
 * each of which changes two keys on rank 0, counts the keys per bucket
 * (NUM_BUCKETS = 1024 buckets), sums the counts (MPI_Allreduce of 1024
 * ints), gives every rank a run of buckets holding about TOTAL / P keys,
 * exchanges the per-rank counts (MPI_Alltoall of one int) and the keys
 * (MPI_Alltoallv of uneven blocks), and ranks the keys it received.
 * Sizes (log2 of TOTAL, MAX_KEY): class S 16, 11; W 20, 16; A 23, 19;
 * B 25, 21; C 27, 23 (IS's classes), 10 iterations after an untimed
 * first one (IS's, which pages memory in and sets libraries up).
 *
 * Prints the ranking iterations' time (the slowest rank's, MPI_Wtime
 * around the loop after a barrier) and verifies the result: the keys are
 * sorted within and across ranks, none was lost (count and sum).  Exit 0
 * if verified.  In SMPI with smpi/simulate-computation:no the time is the
 * communication's alone (scripts/smpi-sort.sh).
 *
 * Usage: mpiexec -n P sort-bench [--class S|W|A|B|C] [--iters N] */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SORT_BUCKETS_LOG2 10
#define SORT_BUCKETS (1 << SORT_BUCKETS_LOG2)

/* The linear congruential generator IS's description names: x' = a x mod
 * 2^46, a = 5^13, from x0 = 314159265; the uniform number is x / 2^46. */
#define SORT_MOD_MASK ((UINT64_C(1) << 46) - 1)
#define SORT_A UINT64_C(1220703125)
#define SORT_SEED UINT64_C(314159265)

static uint64_t sort_mulmod(uint64_t x, uint64_t y)
{
    return (uint64_t)(((unsigned __int128)x * y) & SORT_MOD_MASK);
}

/* a^n mod 2^46: the generator's state n steps after x is a^n x */
static uint64_t sort_pow(uint64_t a, uint64_t n)
{
    uint64_t r = 1;
    for (; n; n >>= 1, a = sort_mulmod(a, a))
        if (n & 1)
            r = sort_mulmod(r, a);
    return r;
}

static void sort_die(const char *what)
{
    fprintf(stderr, "sort-bench: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static void *sort_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL)
        sort_die("out of memory");
    return p;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    char cls = 'A';
    int iters = 10;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--class") == 0 && i + 1 < argc && strchr("SWABC", argv[i + 1][0]) && argv[i + 1][0])
            cls = argv[++i][0];
        else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0 && atoi(argv[i + 1]) < 1000)
            iters = atoi(argv[++i]);
        else {
            if (rank == 0)
                fprintf(stderr, "usage: mpiexec -n P sort-bench [--class S|W|A|B|C] [--iters N (1..999)]\n");
            MPI_Finalize();
            return 2;
        }
    }
    const char *classes = "SWABC";
    const int total_log2[] = {16, 20, 23, 25, 27}, max_log2[] = {11, 16, 19, 21, 23};
    int c = (int)(strchr(classes, cls) - classes);
    long total = 1L << total_log2[c];
    int max_key = 1 << max_log2[c], shift = max_log2[c] - SORT_BUCKETS_LOG2;
    if (P > SORT_BUCKETS || total < 2L * iters * P)
        sort_die("at most 1024 ranks, and at least 2 x iters keys per rank");

    /* my keys: numbers 4 first .. 4 (first + n) of the sequence */
    long first = total * rank / P, n = total * (rank + 1) / P - first;
    int *key = sort_alloc(sizeof(int) * (size_t)n), *sorted = sort_alloc(sizeof(int) * (size_t)n);
    uint64_t x = sort_mulmod(sort_pow(SORT_A, 4 * (uint64_t)first), SORT_SEED);
    for (long i = 0; i < n; i++) {
        double sum = 0.0;
        for (int k = 0; k < 4; k++) {
            x = sort_mulmod(x, SORT_A);
            sum += (double)x / (double)(UINT64_C(1) << 46);
        }
        key[i] = (int)(sum / 4.0 * max_key);
    }

    int count[SORT_BUCKETS], totals[SORT_BUCKETS], at[SORT_BUCKETS];
    int *scount = sort_alloc(sizeof(int) * (size_t)P * 4), *sdispl = scount + P, *rcount = scount + 2 * P,
        *rdispl = scount + 3 * P;
    int *recv = NULL, *ranks = NULL;
    long recv_cap = 0;
    int lo_bucket = 0, hi_bucket = 0; /* my buckets: [lo_bucket, hi_bucket) */
    long nrecv = 0;
    double t0 = 0.0;
    for (int it = 0; it <= iters; it++) { /* iteration 0: untimed, as IS's first (pages, tables, set-up) */
        if (it == 1) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        if (rank == 0 && it > 0) { /* IS's change per iteration: two keys */
            key[it] = it;
            key[it + iters] = max_key - it;
        }
        memset(count, 0, sizeof count);
        for (long i = 0; i < n; i++)
            count[key[i] >> shift]++;
        at[0] = 0;
        for (int b = 1; b < SORT_BUCKETS; b++)
            at[b] = at[b - 1] + count[b - 1];
        for (long i = 0; i < n; i++)
            sorted[at[key[i] >> shift]++] = key[i];
        MPI_Allreduce(count, totals, SORT_BUCKETS, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        /* rank j takes buckets until the running total passes (j + 1) TOTAL / P */
        long run = 0;
        int b = 0;
        for (int j = 0; j < P; j++) {
            int from = b;
            scount[j] = 0;
            while (b < SORT_BUCKETS && (j == P - 1 || run + totals[b] <= total * (j + 1) / P || b == from)) {
                run += totals[b];
                scount[j] += count[b];
                b++;
            }
            if (j == rank)
                lo_bucket = from, hi_bucket = b;
        }
        sdispl[0] = 0;
        for (int j = 1; j < P; j++)
            sdispl[j] = sdispl[j - 1] + scount[j - 1];
        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
        nrecv = 0;
        for (int j = 0; j < P; j++)
            rdispl[j] = (int)nrecv, nrecv += rcount[j];
        if (nrecv > recv_cap) {
            free(recv);
            recv_cap = nrecv + nrecv / 4;
            recv = sort_alloc(sizeof(int) * (size_t)recv_cap);
        }
        MPI_Alltoallv(sorted, scount, sdispl, MPI_INT, recv, rcount, rdispl, MPI_INT, MPI_COMM_WORLD);
        /* rank the received keys: counts over my key range, prefix sums */
        long lo = (long)lo_bucket << shift, span = ((long)hi_bucket << shift) - lo;
        free(ranks);
        ranks = calloc((size_t)span + 1, sizeof(int));
        if (ranks == NULL)
            sort_die("out of memory");
        for (long i = 0; i < nrecv; i++) /* (a key outside my range is counted as wrong below) */
            if (recv[i] >= lo && recv[i] - lo < span)
                ranks[recv[i] - lo]++;
        for (long k = 1; k <= span; k++)
            ranks[k] += ranks[k - 1];
    }
    double mine = MPI_Wtime() - t0, slowest = 0.0;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    /* verification: my received keys, put in order by their ranks, lie in
     * my buckets and in order; my largest is at most the next rank's
     * smallest; every key arrived once (count and sum against the keys
     * before the exchange) */
    long lo = (long)lo_bucket << shift, span = ((long)hi_bucket << shift) - lo, bad = 0;
    int *out = sort_alloc(sizeof(int) * (size_t)(nrecv ? nrecv : 1));
    for (long k = span; k > 0; k--) /* ranks[k]: keys below lo + k */
        ranks[k] = ranks[k - 1];
    ranks[0] = 0;
    for (long i = 0; i < nrecv; i++) {
        long v = recv[i] - lo;
        if (v < 0 || v >= span)
            bad++;
        else
            out[ranks[v]++] = recv[i];
    }
    for (long i = 1; i < nrecv && !bad; i++)
        bad += out[i] < out[i - 1];
    int edge[2] = {nrecv ? out[0] : max_key, nrecv ? out[nrecv - 1] : -1}, next_first = max_key;
    MPI_Sendrecv(&edge[0], 1, MPI_INT, rank > 0 ? rank - 1 : MPI_PROC_NULL, 7, &next_first, 1, MPI_INT,
                 rank + 1 < P ? rank + 1 : MPI_PROC_NULL, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad += nrecv && next_first < edge[1];
    long long sums[3] = {0, 0, bad}, all[3];
    for (long i = 0; i < n; i++)
        sums[0] += key[i];
    for (long i = 0; i < nrecv; i++)
        sums[1] -= recv[i];
    long long counts[2] = {n, nrecv}, allc[2];
    MPI_Allreduce(sums, all, 3, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(counts, allc, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    int ok = all[0] + all[1] == 0 && all[2] == 0 && allc[0] == total && allc[1] == total;
    if (rank == 0)
        printf("sort class=%c P=%d keys=%ld iters=%d time_us=%.3f per_iter_us=%.3f verification=%s\n", cls, P, total,
               iters, slowest * 1e6, slowest * 1e6 / iters, ok ? "SUCCESSFUL" : "FAILED");
    free(out);
    free(ranks);
    free(recv);
    free(scount);
    free(sorted);
    free(key);
    MPI_Finalize();
    return ok ? 0 : 1;
}
