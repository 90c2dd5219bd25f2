/* Every predefined reduction operator on every predefined datatype it is
 * defined on (MPI-4.0 section 6.9.2: integer, floating point, complex,
 * logical, byte and pair groups) by MPI_Reduce and MPI_Allreduce (every
 * rank's result checked), and MPI_Bcast / MPI_Alltoall of every
 * such datatype, under the shim (LD_PRELOAD).  Every rank can regenerate
 * every rank's input, so the expected result is computed locally:
 * MPI_Reduce_local over the inputs in rank order (small whole numbers:
 * exact in any order), the root's buffer, the senders' blocks (not
 * PMPI_*: the shim's library intercepts those too, for PMPI tools).
 * Compared bit for bit (integers, logicals, bytes, characters, the pairs'
 * value and index, not their gaps), floating and complex values by value
 * (the order of combining may change a zero's sign; long double's padding).  Counts 1, 3, 1000 and 40000 (past the large-message
 * algorithms' crossovers), roots rotating.  Prints
 * "test_types: N passed, M failed" on rank 0. */
#include <complex.h>
#include <mpi.h>

#include "tally.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { INTEGER = 1, FLOATING = 2, COMPLEX = 4, LOGICAL = 8, BYTE = 16, PAIR = 32, OTHER = 64 };

typedef struct {
    MPI_Datatype type;
    const char *name;
    int group;
    size_t value; /* bytes that carry the value (the rest of the extent is padding or the pair's int) */
    size_t index; /* a pair's int: its offset */
} logp_test_type_t;

/* The pair types' C layouts (MPI-4.0 section 6.9.4), for their int's offset. */
typedef struct { float v; int i; } logp_float_int_t;
typedef struct { double v; int i; } logp_double_int_t;
typedef struct { long v; int i; } logp_long_int_t;
typedef struct { int v; int i; } logp_2int_t;
typedef struct { short v; int i; } logp_short_int_t;
typedef struct { long double v; int i; } logp_long_double_int_t;

typedef struct {
    MPI_Op op;
    const char *name;
    int groups; /* where the operator is defined */
} logp_test_op_t;

/* The inputs: small whole numbers, so that sums and products are exact in
 * any order of combining (and every algorithm combines in its own). */
static void fill(const logp_test_type_t *t, unsigned char *buf, int count, MPI_Aint extent, unsigned seed)
{
    memset(buf, 0, (size_t)extent * (size_t)count);
    for (int k = 0; k < count; k++) {
        unsigned char *e = buf + (size_t)k * (size_t)extent;
        seed = seed * 1103515245u + 12345u;
        int v = (int)((seed >> 16) % 3) - (t->group & (FLOATING | COMPLEX | PAIR) ? 1 : 0), im = (int)((seed >> 8) % 3);
        MPI_Datatype d = t->type;
        if (d == MPI_FLOAT)
            *(float *)e = (float)v;
        else if (d == MPI_DOUBLE)
            *(double *)e = v;
        else if (d == MPI_LONG_DOUBLE)
            *(long double *)e = v;
        else if (d == MPI_C_FLOAT_COMPLEX)
            *(float complex *)e = (float)v + (float)im * I;
        else if (d == MPI_C_DOUBLE_COMPLEX)
            *(double complex *)e = v + im * I;
        else if (d == MPI_C_LONG_DOUBLE_COMPLEX)
            *(long double complex *)e = v + im * I;
        else if (d == MPI_C_BOOL)
            *(bool *)e = v != 0;
        else if (t->group == PAIR) { /* the value, then the int index at the type's own offset */
            int idx = (int)(seed % 7);
            if (d == MPI_FLOAT_INT)
                *(float *)e = (float)v;
            else if (d == MPI_DOUBLE_INT)
                *(double *)e = v;
            else if (d == MPI_LONG_INT)
                *(long *)e = v;
            else if (d == MPI_2INT)
                *(int *)e = v;
            else if (d == MPI_SHORT_INT)
                *(short *)e = (short)v;
            else
                *(long double *)e = v;
            memcpy(e + t->index, &idx, sizeof idx);
        } else /* integers, bytes, characters: any bits, small values */
            for (size_t b = 0; b < t->value; b++)
                e[b] = b == 0 ? (unsigned char)(seed >> 20) % 5 : 0;
    }
}

/* The seed of rank r's input for type i, operator j (or a bcast / block
 * number), count index c: every rank can regenerate every rank's input. */
static unsigned logp_test_seed(int r, int i, int j, int c)
{
    return (unsigned)(r * 131 + i * 17 + j * 5 + c);
}

/* Nonzero if the value bytes of a and b differ (pairs: the value and the int). */
static int differ(const logp_test_type_t *t, const unsigned char *a, const unsigned char *b, int count, MPI_Aint extent)
{
    for (int k = 0; k < count; k++) {
        const unsigned char *x = a + (size_t)k * (size_t)extent, *y = b + (size_t)k * (size_t)extent;
        if (t->group & (FLOATING | COMPLEX)) { /* by value: the order of combining can change a zero's sign */
            MPI_Datatype d = t->type;
            long double xr, yr, xi = 0, yi = 0;
            if (d == MPI_FLOAT || d == MPI_C_FLOAT_COMPLEX)
                xr = ((const float *)x)[0], yr = ((const float *)y)[0];
            else if (d == MPI_DOUBLE || d == MPI_C_DOUBLE_COMPLEX)
                xr = ((const double *)x)[0], yr = ((const double *)y)[0];
            else
                xr = ((const long double *)x)[0], yr = ((const long double *)y)[0];
            if (d == MPI_C_FLOAT_COMPLEX)
                xi = ((const float *)x)[1], yi = ((const float *)y)[1];
            else if (d == MPI_C_DOUBLE_COMPLEX)
                xi = ((const double *)x)[1], yi = ((const double *)y)[1];
            else if (d == MPI_C_LONG_DOUBLE_COMPLEX)
                xi = ((const long double *)x)[1], yi = ((const long double *)y)[1];
            if (xr != yr || xi != yi)
                return 1;
            continue;
        }
        if (memcmp(x, y, t->value) != 0)
            return 1;
        if (t->group == PAIR && memcmp(x + t->index, y + t->index, sizeof(int)) != 0)
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, pass = 0, fail = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const size_t ld = 10; /* x86-64 long double: 80 bits of value in 16 bytes */
    const logp_test_type_t types[] = {
        {MPI_CHAR, "MPI_CHAR", OTHER, 1, 0},
        {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", INTEGER, 1, 0},
        {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", INTEGER, 1, 0},
        {MPI_SHORT, "MPI_SHORT", INTEGER, sizeof(short), 0},
        {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", INTEGER, sizeof(short), 0},
        {MPI_INT, "MPI_INT", INTEGER, sizeof(int), 0},
        {MPI_UNSIGNED, "MPI_UNSIGNED", INTEGER, sizeof(int), 0},
        {MPI_LONG, "MPI_LONG", INTEGER, sizeof(long), 0},
        {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", INTEGER, sizeof(long), 0},
        {MPI_LONG_LONG, "MPI_LONG_LONG", INTEGER, sizeof(long long), 0},
        {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", INTEGER, sizeof(long long), 0},
        {MPI_INT8_T, "MPI_INT8_T", INTEGER, 1, 0},
        {MPI_UINT16_T, "MPI_UINT16_T", INTEGER, 2, 0},
        {MPI_INT32_T, "MPI_INT32_T", INTEGER, 4, 0},
        {MPI_UINT64_T, "MPI_UINT64_T", INTEGER, 8, 0},
        {MPI_AINT, "MPI_AINT", INTEGER, sizeof(MPI_Aint), 0},
        {MPI_OFFSET, "MPI_OFFSET", INTEGER, sizeof(MPI_Offset), 0},
        {MPI_COUNT, "MPI_COUNT", INTEGER, sizeof(MPI_Count), 0},
        {MPI_WCHAR, "MPI_WCHAR", OTHER, sizeof(wchar_t), 0},
        {MPI_FLOAT, "MPI_FLOAT", FLOATING, sizeof(float), 0},
        {MPI_DOUBLE, "MPI_DOUBLE", FLOATING, sizeof(double), 0},
        {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", FLOATING, ld, 0},
        {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", COMPLEX, 2 * sizeof(float), 0},
        {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", COMPLEX, 2 * sizeof(double), 0},
        {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", COMPLEX, ld, 0},
        {MPI_C_BOOL, "MPI_C_BOOL", LOGICAL, sizeof(bool), 0},
        {MPI_BYTE, "MPI_BYTE", BYTE, 1, 0},
        {MPI_FLOAT_INT, "MPI_FLOAT_INT", PAIR, sizeof(float), offsetof(logp_float_int_t, i)},
        {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", PAIR, sizeof(double), offsetof(logp_double_int_t, i)},
        {MPI_LONG_INT, "MPI_LONG_INT", PAIR, sizeof(long), offsetof(logp_long_int_t, i)},
        {MPI_2INT, "MPI_2INT", PAIR, sizeof(int), offsetof(logp_2int_t, i)},
        {MPI_SHORT_INT, "MPI_SHORT_INT", PAIR, sizeof(short), offsetof(logp_short_int_t, i)},
        {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", PAIR, ld, offsetof(logp_long_double_int_t, i)},
    };
    const logp_test_op_t ops[] = {
        {MPI_SUM, "MPI_SUM", INTEGER | FLOATING | COMPLEX},
        {MPI_PROD, "MPI_PROD", INTEGER | FLOATING | COMPLEX},
        {MPI_MAX, "MPI_MAX", INTEGER | FLOATING},
        {MPI_MIN, "MPI_MIN", INTEGER | FLOATING},
        {MPI_LAND, "MPI_LAND", INTEGER | LOGICAL},
        {MPI_LOR, "MPI_LOR", INTEGER | LOGICAL},
        {MPI_LXOR, "MPI_LXOR", INTEGER | LOGICAL},
        {MPI_BAND, "MPI_BAND", INTEGER | BYTE},
        {MPI_BOR, "MPI_BOR", INTEGER | BYTE},
        {MPI_BXOR, "MPI_BXOR", INTEGER | BYTE},
        {MPI_MAXLOC, "MPI_MAXLOC", PAIR},
        {MPI_MINLOC, "MPI_MINLOC", PAIR},
    };
    const int counts[] = {1, 3, 1000, 40000};
    const int ntypes = (int)(sizeof types / sizeof types[0]), nops = (int)(sizeof ops / sizeof ops[0]);
    const int ncounts = (int)(sizeof counts / sizeof counts[0]);
    for (int i = 0; i < ntypes; i++) {
        const logp_test_type_t *t = &types[i];
        MPI_Aint lb, extent;
        MPI_Type_get_extent(t->type, &lb, &extent);
        for (int c = 0; c < ncounts; c++) {
            int count = counts[c];
            size_t bytes = (size_t)extent * (size_t)count;
            unsigned char *in = malloc(bytes * (size_t)size), *got = malloc(bytes * (size_t)size),
                          *want = malloc(bytes * (size_t)size);
            if (!in || !got || !want)
                MPI_Abort(MPI_COMM_WORLD, 2);
            for (int j = 0; j < nops; j++) {
                if (!(ops[j].groups & t->group))
                    continue;
                int root = (i + j + c) % size, bad = 0;
                fill(t, in, count, extent, logp_test_seed(rank, i, j, c));
                memset(got, 0x5a, bytes);
                if (MPI_Reduce(in, got, count, t->type, ops[j].op, root, MPI_COMM_WORLD) != MPI_SUCCESS)
                    bad = 1;
                else if (rank == root) { /* want = in_0 op (in_1 op (... op in_{P-1})), every input regenerated */
                    fill(t, want, count, extent, logp_test_seed(size - 1, i, j, c));
                    for (int r = size - 2; r >= 0; r--) {
                        fill(t, in, count, extent, logp_test_seed(r, i, j, c));
                        MPI_Reduce_local(in, want, count, t->type, ops[j].op);
                    }
                    bad = differ(t, got, want, count, extent);
                }
                if (bad)
                    printf("rank %d: MPI_Reduce %s %s count %d root %d: wrong\n", rank, t->name, ops[j].name, count, root);
                bad ? fail++ : pass++;
                /* the same reduction by MPI_Allreduce: every rank's result (want: the
                 * root's above, regenerated where this rank is not the root) */
                fill(t, in, count, extent, logp_test_seed(rank, i, j, c));
                memset(got, 0x5a, bytes);
                bad = MPI_Allreduce(in, got, count, t->type, ops[j].op, MPI_COMM_WORLD) != MPI_SUCCESS;
                fill(t, want, count, extent, logp_test_seed(size - 1, i, j, c));
                for (int r = size - 2; r >= 0; r--) {
                    fill(t, in, count, extent, logp_test_seed(r, i, j, c));
                    MPI_Reduce_local(in, want, count, t->type, ops[j].op);
                }
                bad = bad || differ(t, got, want, count, extent);
                if (bad)
                    printf("rank %d: MPI_Allreduce %s %s count %d: wrong\n", rank, t->name, ops[j].name, count);
                bad ? fail++ : pass++;
            }
            /* bcast and all-to-all of the type (at most 1000 elements per block) */
            if (count > 1000)
                count = 1000, bytes = (size_t)extent * (size_t)count;
            int root = i % size, bad;
            fill(t, got, count, extent, logp_test_seed(rank, i, 99, c));
            fill(t, want, count, extent, logp_test_seed(root, i, 99, c)); /* the root's */
            MPI_Bcast(got, count, t->type, root, MPI_COMM_WORLD);
            bad = differ(t, got, want, count, extent);
            if (bad)
                printf("rank %d: MPI_Bcast %s count %d root %d: wrong\n", rank, t->name, count, root);
            bad ? fail++ : pass++;
            /* block b of rank r's send buffer: rank r's input for (b, ...) */
            for (int r = 0; r < size; r++)
                fill(t, in + (size_t)r * bytes, count, extent, logp_test_seed(rank, i, 100 + r, c));
            memset(got, 0x5a, bytes * (size_t)size);
            MPI_Alltoall(in, count, t->type, got, count, t->type, MPI_COMM_WORLD);
            bad = 0;
            for (int r = 0; r < size && !bad; r++) {
                fill(t, want, count, extent, logp_test_seed(r, i, 100 + rank, c));
                bad = differ(t, got + (size_t)r * bytes, want, count, extent);
            }
            if (bad)
                printf("rank %d: MPI_Alltoall %s count %d: wrong\n", rank, t->name, count);
            bad ? fail++ : pass++;
            free(in);
            free(got);
            free(want);
        }
    }
    int local[2] = {pass, fail}, total[2];
    tally_ints(local, total, 2, MPI_SUM, MPI_COMM_WORLD); /* not a collective the shim takes */
    if (rank == 0)
        printf("test_types: %d passed, %d failed\n", total[0], total[1]);
    MPI_Finalize();
    return total[1] ? 1 : 0;
}
