/* Tests' tallies by a collective the shim does not take (it answers
 * MPI_Allreduce and PMPI_Allreduce: a broken shim could miscount its own
 * failures): an allgather, then the element-wise MPI_SUM, MPI_MIN or
 * MPI_MAX of n <= TALLY_MAX ints, computed locally. */
#ifndef LOGP_TESTS_TALLY_H
#define LOGP_TESTS_TALLY_H

#include <stdlib.h>

#include <mpi.h>

#define TALLY_MAX 8

static inline int tally_ints(const int *in, int *out, int n, MPI_Op op, MPI_Comm comm)
{
    int P = 1;
    MPI_Comm_size(comm, &P);
    int *all = malloc(sizeof(int) * (size_t)TALLY_MAX * (size_t)P), mine[TALLY_MAX] = {0};
    if (all == NULL || n > TALLY_MAX)
        abort();
    for (int i = 0; i < n; i++)
        mine[i] = in[i];
    int rc = MPI_Allgather(mine, TALLY_MAX, MPI_INT, all, TALLY_MAX, MPI_INT, comm);
    for (int i = 0; i < n; i++) {
        int v = all[i];
        for (int r = 1; r < P; r++) {
            int x = all[r * TALLY_MAX + i];
            v = op == MPI_SUM ? v + x : op == MPI_MIN ? (x < v ? x : v) : (x > v ? x : v);
        }
        out[i] = v;
    }
    free(all);
    return rc;
}

#endif
