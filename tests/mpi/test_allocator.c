/* Does a block of 4 MiB, allocated after the first collective, come from
 * the C library's heap (the shim's allocator warming: coll/warm.h) or
 * from a mapping of its own?  Prints "test_allocator: mapped N" (glibc's
 * count of mapped blocks it added); run_tuning.sh expects 0 under the
 * shim and 1 without it or with PMPI_LOGP_WARM=0. */
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, value = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD); /* the shim sets up at its first call */
    size_t before = mallinfo2().hblks;
    char *volatile block = malloc((size_t)4 << 20);
    size_t after = mallinfo2().hblks;
    if (block != NULL)
        memset(block, 1, 4096);
    free(block);
    if (rank == 0)
        printf("test_allocator: mapped %zu\n", after - before);
    MPI_Finalize();
    return block == NULL;
}
