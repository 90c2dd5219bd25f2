/* MPI correctness matrix for MPI_Bcast, MPI_Reduce, MPI_Alltoall and MPI_Allreduce.
 *
 * Built WITHOUT the shim (run under LD_PRELOAD) and relinked with it; the
 * algorithm under test is chosen by PMPI_LOGP_* in the environment.  Every
 * expected result is computed locally from the same value generator every
 * rank uses, never by calling the MPI library (whose own collectives have
 * bugs, see docs/design.md, "The platform").  Holes of derived datatypes
 * must stay untouched.
 *
 * Usage: test_coll [--big] [--no-struct] [--few-roots] [--world-only] [--entry blocking|c]
 *   --entry c calls the large-count forms (MPI_Bcast_c & co., MPI-4) and
 *   adds counts past INT_MAX;
 *   --big adds >= 1,000,000-element cases; --no-struct drops the struct type
 *   with a negative lower bound (SimGrid SMPI 3.32 mishandles it, even in its
 *   own collectives); --few-roots tests roots 0, 1, P/2 and P-1 only, where
 *   every root is the default (7 and 8 ranks on two cores: the root loops
 *   are most of the time, and every root is tested at smaller sizes);
 *   --world-only leaves out the reversed and split sub-communicators (7 and
 *   8 ranks again: each pass costs seconds there, and smaller runs test them).
 * Prints "test_coll: N passed, M failed" on rank 0; exit status 1 on failure. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "tally.h"

#define HOLE 0xAB
#define MAXF 4

typedef enum { OP_SUM, OP_MAX, OP_PROD, OP_MAXLOC, OP_USER_SUM, OP_MATMUL, OP_NONE } opkind_t;

/* A datatype case: an element is a chunk of `stride` bytes; the MPI buffer
 * address points `pad` bytes into the first chunk (negative lower bounds);
 * field f of element k is at base + k*stride + off[f], of C kind kind[f]. */
typedef struct {
    const char *name;
    MPI_Datatype dt;
    int nf;
    size_t stride;
    ptrdiff_t pad;
    ptrdiff_t off[MAXF];
    char kind[MAXF]; /* 'i' int, 'd' double, 'u' unsigned */
    opkind_t ops[4];
    int nops;
} tcase_t;

static int g_rank, g_size, g_pass, g_fail, g_verbose_fail = 10, g_few_roots;

/* --- the entry point under test (--entry) ------------------------------ */
typedef enum { ENTRY_BLOCKING, ENTRY_LARGE_COUNT } entry_t;
static entry_t g_entry = ENTRY_BLOCKING;

/* MPI-4 large counts (MPI_Bcast_c & co.): MPICH 4 has them, Open MPI 4.1 not */
#if MPI_VERSION >= 4
#define HAVE_LARGE_COUNT 1
#else
#define HAVE_LARGE_COUNT 0
#endif

/* The matrix's three collectives through the entry point under test. */
static int coll_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
#if HAVE_LARGE_COUNT
    if (g_entry == ENTRY_LARGE_COUNT)
        return MPI_Bcast_c(buf, count, dt, root, comm);
#endif
    return MPI_Bcast(buf, count, dt, root, comm);
}

static int coll_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
#if HAVE_LARGE_COUNT
    if (g_entry == ENTRY_LARGE_COUNT)
        return MPI_Reduce_c(sbuf, rbuf, count, dt, op, root, comm);
#endif
    return MPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
}

static int coll_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                         MPI_Comm comm)
{
#if HAVE_LARGE_COUNT
    if (g_entry == ENTRY_LARGE_COUNT)
        return MPI_Alltoall_c(sbuf, scount, stype, rbuf, rcount, rtype, comm);
#endif
    return MPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

static int coll_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
#if HAVE_LARGE_COUNT
    if (g_entry == ENTRY_LARGE_COUNT)
        return MPI_Allreduce_c(sbuf, rbuf, count, dt, op, comm);
#endif
    return MPI_Allreduce(sbuf, rbuf, count, dt, op, comm);
}

/* Nonzero if the root loops test `root` of P ranks (--few-roots). */
static int root_tested(int root, int P)
{
    return !g_few_roots || root <= 1 || root == P / 2 || root == P - 1;
}

static void check(int ok, const char *what, const char *comm, const char *tc, const char *op, int count, int root)
{
    if (ok) {
        g_pass++;
        return;
    }
    g_fail++;
    if (g_verbose_fail-- > 0)
        fprintf(stderr, "FAIL rank %d/%d %s: %s type %s op %s count %d root %d\n", g_rank, g_size, comm, what, tc,
                op, count, root);
}

/* The value every rank can recompute: rank r, logical element i, field f. */
static double gen(int r, long i, int f, opkind_t op)
{
    switch (op) {
    case OP_PROD:
        return (double)((r + i + f) % 3 + 1);
    case OP_MAXLOC:
        return f == 0 ? (double)((r * 7 + i * 3) % 5) : (double)r;
    case OP_MATMUL:
        return (double)((r * 5 + i * 3 + f * 7) % 9 + 1);
    default:
        return (double)((r * 31 + i * 17 + f * 5) % 11 - 5);
    }
}

static void put(const tcase_t *t, void *base, long k, int f, double v)
{
    char *p = (char *)base + k * (ptrdiff_t)t->stride + t->off[f];
    if (t->kind[f] == 'i') {
        int x = (int)v;
        memcpy(p, &x, sizeof x);
    } else if (t->kind[f] == 'u') {
        unsigned x = (unsigned)(long)v;
        memcpy(p, &x, sizeof x);
    } else {
        memcpy(p, &v, sizeof v);
    }
}

static double get(const tcase_t *t, const void *base, long k, int f)
{
    const char *p = (const char *)base + k * (ptrdiff_t)t->stride + t->off[f];
    if (t->kind[f] == 'i') {
        int x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    if (t->kind[f] == 'u') { /* read back as the int it was written from */
        unsigned x;
        memcpy(&x, p, sizeof x);
        return (double)(int32_t)x;
    }
    double x;
    memcpy(&x, p, sizeof x);
    return x;
}

static size_t fsize(char kind)
{
    return kind == 'd' ? sizeof(double) : sizeof(int);
}

/* Buffer of n elements, every byte HOLE; returns the MPI address. */
static void *talloc(const tcase_t *t, long n, void **mem)
{
    size_t bytes = (size_t)(n > 0 ? n : 1) * t->stride;
    *mem = malloc(bytes);
    memset(*mem, HOLE, bytes);
    return (char *)*mem + t->pad;
}

static int holes_intact(const tcase_t *t, const void *mem, long n)
{
    const unsigned char *c = mem;
    for (long k = 0; k < n; k++)
        for (size_t b = 0; b < t->stride; b++) {
            ptrdiff_t rel = (ptrdiff_t)b - t->pad;
            int covered = 0;
            for (int f = 0; f < t->nf; f++)
                if (rel >= t->off[f] && rel < t->off[f] + (ptrdiff_t)fsize(t->kind[f]))
                    covered = 1;
            if (!covered && c[k * t->stride + b] != HOLE)
                return 0;
        }
    return 1;
}

/* --- user operators --------------------------------------------------- */
/* Calls of a user operator with a count of 0 or a datatype other than the
 * one the application reduces (test suites' operators check both: a
 * shim must call them as the MPI library does). */
static int g_bad_op_calls;
static MPI_Datatype g_reduce_dt;

static void op_called(int len, MPI_Datatype dt)
{
    g_bad_op_calls += len <= 0 || dt != g_reduce_dt;
}

static void user_int_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    op_called(*len, *dt);
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

/* element of the struct case: int at -16, double at 0 from the base */
static void user_struct_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    op_called(*len, *dt);
    for (int i = 0; i < *len; i++) {
        char *a = (char *)in + 32 * i, *b = (char *)inout + 32 * i;
        int x, y;
        double u, v;
        memcpy(&x, a - 16, sizeof x);
        memcpy(&y, b - 16, sizeof y);
        y += x;
        memcpy(b - 16, &y, sizeof y);
        memcpy(&u, a, sizeof u);
        memcpy(&v, b, sizeof v);
        v += u;
        memcpy(b, &v, sizeof v);
    }
}

/* element of the vector case: ints at 0 and 12, extent 16 */
static void user_vec_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    op_called(*len, *dt);
    for (int i = 0; i < *len; i++) {
        int *a = (int *)in + 4 * i, *b = (int *)inout + 4 * i;
        b[0] += a[0];
        b[3] += a[3];
    }
}

/* 2x2 unsigned matrices, inout = in * inout (mod 2^32): order matters */
static void user_matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    op_called(*len, *dt);
    for (int i = 0; i < *len; i++) {
        unsigned *a = (unsigned *)in + 4 * i, *b = (unsigned *)inout + 4 * i, c[4];
        c[0] = a[0] * b[0] + a[1] * b[2];
        c[1] = a[0] * b[1] + a[1] * b[3];
        c[2] = a[2] * b[0] + a[3] * b[2];
        c[3] = a[2] * b[1] + a[3] * b[3];
        memcpy(b, c, sizeof c);
    }
}

static MPI_Op op_user_sum, op_struct_sum, op_vec_sum, op_matmul;

static MPI_Op mpi_op(const tcase_t *t, opkind_t op)
{
    switch (op) {
    case OP_SUM:
        return MPI_SUM;
    case OP_MAX:
        return MPI_MAX;
    case OP_PROD:
        return MPI_PROD;
    case OP_MAXLOC:
        return MPI_MAXLOC;
    case OP_USER_SUM:
        return t->nf == 1 ? op_user_sum : t->kind[1] == 'd' ? op_struct_sum : op_vec_sum;
    case OP_MATMUL:
        return op_matmul;
    default:
        return MPI_OP_NULL;
    }
}

static const char *op_name(opkind_t op)
{
    static const char *n[] = {"sum", "max", "prod", "maxloc", "user-sum", "matmul", "none"};
    return n[op];
}

/* Expected reduction of element i over ranks 0..P-1 in rank order. */
static void expect_reduce(const tcase_t *t, opkind_t op, int P, long i, double *out)
{
    if (op == OP_MATMUL) {
        uint32_t acc[4];
        for (int f = 0; f < 4; f++)
            acc[f] = (uint32_t)gen(0, i, f, op);
        for (int r = 1; r < P; r++) {
            uint32_t b[4], c[4];
            for (int f = 0; f < 4; f++)
                b[f] = (uint32_t)gen(r, i, f, op);
            c[0] = acc[0] * b[0] + acc[1] * b[2];
            c[1] = acc[0] * b[1] + acc[1] * b[3];
            c[2] = acc[2] * b[0] + acc[3] * b[2];
            c[3] = acc[2] * b[1] + acc[3] * b[3];
            memcpy(acc, c, sizeof c);
        }
        for (int f = 0; f < 4; f++)
            out[f] = (double)(int32_t)acc[f];
        return;
    }
    for (int f = 0; f < t->nf; f++)
        out[f] = gen(0, i, f, op);
    for (int r = 1; r < P; r++) {
        if (op == OP_MAXLOC) {
            double v = gen(r, i, 0, op);
            if (v > out[0]) {
                out[0] = v;
                out[1] = r;
            }
            continue;
        }
        for (int f = 0; f < t->nf; f++) {
            double v = gen(r, i, f, op);
            out[f] = op == OP_MAX ? (v > out[f] ? v : out[f]) : op == OP_PROD ? out[f] * v : out[f] + v;
        }
    }
}

/* Nonzero if rbuf holds the rank-order reduction of every rank's inputs
 * (expect_reduce) in each of its count elements. */
static int reduced_ok(const tcase_t *t, opkind_t op, int P, const void *rbuf, int count)
{
    double e[MAXF];
    int ok = 1;
    for (long k = 0; ok && k < count; k++) {
        expect_reduce(t, op, P, k, e);
        for (int f = 0; f < t->nf; f++)
            ok &= get(t, rbuf, k, f) == e[f];
    }
    return ok;
}

/* --- the collectives -------------------------------------------------- */
static void test_bcast(MPI_Comm comm, const char *cname, const tcase_t *t, int count, int root)
{
    int r, P;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
    void *mem, *buf = talloc(t, count, &mem);
    if (r == root)
        for (long k = 0; k < count; k++)
            for (int f = 0; f < t->nf; f++)
                put(t, buf, k, f, gen(root, k, f, OP_NONE));
    int rc = coll_bcast(buf, count, t->dt, root, comm), ok = rc == MPI_SUCCESS;
    for (long k = 0; ok && k < count; k++)
        for (int f = 0; f < t->nf; f++)
            ok &= get(t, buf, k, f) == gen(root, k, f, OP_NONE);
    ok &= holes_intact(t, mem, count);
    check(ok, "bcast", cname, t->name, "-", count, root);
    free(mem);
}

/* Bcast whose root sends `count` elements of t while the other ranks
 * receive the same ints as elements of rt (MPI requires equal type
 * signatures only): t and rt hold int fields only; logical int
 * k * nf + f is field f of element k. */
static void test_bcast_mixed(MPI_Comm comm, const char *cname, const tcase_t *t, const tcase_t *rt, int ints, int root)
{
    int r;
    MPI_Comm_rank(comm, &r);
    const tcase_t *mine = r == root ? t : rt;
    int n = ints / mine->nf;
    void *mem, *buf = talloc(mine, n, &mem);
    if (r == root)
        for (long k = 0; k < n; k++)
            for (int f = 0; f < mine->nf; f++)
                put(mine, buf, k, f, gen(root, k * mine->nf + f, 0, OP_NONE));
    int rc = coll_bcast(buf, n, mine->dt, root, comm), ok = rc == MPI_SUCCESS;
    for (long k = 0; ok && k < n; k++)
        for (int f = 0; f < mine->nf; f++)
            ok &= get(mine, buf, k, f) == gen(root, k * mine->nf + f, 0, OP_NONE);
    ok &= holes_intact(mine, mem, n);
    char what[64];
    snprintf(what, sizeof what, "bcast(root %s, others %s)", t->name, rt->name);
    check(ok, what, cname, t->name, "-", ints, root);
    free(mem);
}

static void test_reduce(MPI_Comm comm, const char *cname, const tcase_t *t, opkind_t op, int count, int root,
                        int in_place)
{
    int r, P;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
    void *smem, *rmem = NULL, *sbuf = talloc(t, count, &smem), *rbuf = NULL;
    for (long k = 0; k < count; k++)
        for (int f = 0; f < t->nf; f++)
            put(t, sbuf, k, f, gen(r, k, f, op));
    if (r == root)
        rbuf = in_place ? sbuf : talloc(t, count, &rmem);
    g_reduce_dt = t->dt;
    int bad_calls = g_bad_op_calls;
    int rc = coll_reduce(in_place && r == root ? MPI_IN_PLACE : sbuf, rbuf, count, t->dt, mpi_op(t, op), root, comm);
    int ok = rc == MPI_SUCCESS;
    /* the send buffer is unchanged on every rank (but the in-place root) */
    if (!(in_place && r == root))
        for (long k = 0; ok && k < count; k++)
            for (int f = 0; f < t->nf; f++)
                ok &= get(t, sbuf, k, f) == gen(r, k, f, op);
    if (r == root)
        ok = ok && reduced_ok(t, op, P, rbuf, count) && holes_intact(t, in_place ? smem : rmem, count);
    ok &= g_bad_op_calls == bad_calls;
    char what[32];
    snprintf(what, sizeof what, "reduce%s", in_place ? "(in-place)" : "");
    check(ok, what, cname, t->name, op_name(op), count, root);
    free(smem);
    free(rmem);
}

/* Allreduce: every rank's result checked (rank order for the
 * non-commutative operator); in_place uses MPI_IN_PLACE on every rank. */
/* Nonzero if the collective the environment variable `var` configures
 * (PMPI_LOGP_REDUCE, ...) may run the library's own algorithm: not forced
 * to one of ours (unset, native or auto).  Cases the library gets wrong
 * are tested only where it cannot run. */
static int library_may_run(const char *var)
{
    const char *forced = getenv(var);
    return forced == NULL || strcmp(forced, "native") == 0 || strcmp(forced, "auto") == 0;
}

static void test_allreduce(MPI_Comm comm, const char *cname, const tcase_t *t, opkind_t op, int count, int in_place)
{
#ifdef SMPI_H
    /* SimGrid 3.32 SMPI's own allreduce divides by zero on a derived
     * datatype with a commutative operator; the shim never hands it such a
     * call it runs (shim.c), but a call of count 0 is the library's */
    int ni, na, nd, combiner;
    MPI_Type_get_envelope(t->dt, &ni, &na, &nd, &combiner);
    if (count == 0 && combiner != MPI_COMBINER_NAMED && op != OP_MATMUL)
        return;
#endif
    int r, P;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
#ifdef OPEN_MPI
    /* Open MPI 4.1's ring allreduce (coll/tuned's choice for large
     * commutative calls, count >= P) receives into a temporary buffer
     * without the datatype's true lower bound and so writes before it when
     * that bound is negative (valgrind, without the shim too): a corrupted
     * heap that crashed matrix runs at MPI_Finalize.  The shim's own
     * algorithms are tested on this type when forced; where the library's
     * allreduce may run (native, auto, unset), the library's bug would be
     * tested instead. */
    if (t->pad != 0 && count >= P && library_may_run("PMPI_LOGP_ALLREDUCE"))
        return;
#endif
    void *smem, *rmem = NULL, *sbuf = talloc(t, count, &smem);
    void *rbuf = in_place ? sbuf : talloc(t, count, &rmem);
    for (long k = 0; k < count; k++)
        for (int f = 0; f < t->nf; f++)
            put(t, sbuf, k, f, gen(r, k, f, op));
    g_reduce_dt = t->dt;
    int bad_calls = g_bad_op_calls;
    int rc = coll_allreduce(in_place ? MPI_IN_PLACE : sbuf, rbuf, count, t->dt, mpi_op(t, op), comm);
    int ok = rc == MPI_SUCCESS;
    if (!in_place)
        for (long k = 0; ok && k < count; k++)
            for (int f = 0; f < t->nf; f++)
                ok &= get(t, sbuf, k, f) == gen(r, k, f, op);
    ok = ok && reduced_ok(t, op, P, rbuf, count) && holes_intact(t, in_place ? smem : rmem, count);
    ok &= g_bad_op_calls == bad_calls;
    check(ok, in_place ? "allreduce(in-place)" : "allreduce", cname, t->name, op_name(op), count, -1);
    free(smem);
    free(rmem);
}

/* Allreduce of random doubles (a sum whose bits depend on the order of
 * the additions): every rank must hold the same bits, whatever the
 * algorithm (allgathered digests compared), and each element within
 * rounding of the sum in rank order. */
static void test_allreduce_bits(MPI_Comm comm, const char *cname, int count)
{
    int r, P;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
    double *in = malloc(sizeof(double) * (size_t)count), *out = malloc(sizeof(double) * (size_t)count);
    unsigned long long *digests = malloc(sizeof(unsigned long long) * (size_t)P);
    srand(1234u + 77u * (unsigned)r);
    for (int i = 0; i < count; i++)
        in[i] = ((double)rand() / RAND_MAX - 0.5) * (double)(1ull << (rand() % 40));
    int ok = coll_allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, comm) == MPI_SUCCESS;
    unsigned long long h = 1469598103934665603ull; /* FNV-1a of the result's bytes */
    for (size_t b = 0; b < sizeof(double) * (size_t)count; b++)
        h = (h ^ ((const unsigned char *)out)[b]) * 1099511628211ull;
    MPI_Allgather(&h, 1, MPI_UNSIGNED_LONG_LONG, digests, 1, MPI_UNSIGNED_LONG_LONG, comm);
    for (int q = 0; q < P; q++)
        ok &= digests[q] == h;
    for (int i = 0; ok && i < count; i++) { /* the same rank-order sum, recomputed from every rank's seed */
        double want = 0.0, mag = 0.0;
        for (int q = 0; q < P; q++) {
            srand(1234u + 77u * (unsigned)q);
            double v = 0.0;
            for (int j = 0; j <= i; j++)
                v = ((double)rand() / RAND_MAX - 0.5) * (double)(1ull << (rand() % 40));
            want += v;
            mag += v < 0 ? -v : v;
        }
        double d = out[i] - want;
        ok &= (d < 0 ? -d : d) <= 1e-12 * mag;
        if (i >= 50)
            break; /* the first elements suffice for the values; the digest covers all */
    }
    check(ok, "allreduce(same bits on every rank)", cname, "double", "sum", count, -1);
    free(in);
    free(out);
    free(digests);
}

/* Alltoall; `rt` (if not NULL) receives with another type of the same
 * signature; in_place uses MPI_IN_PLACE on every rank. */
static void test_alltoall(MPI_Comm comm, const char *cname, const tcase_t *t, const tcase_t *rt, int count,
                          int in_place)
{
    int r, P;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
    int scount = count, rcount = count;
    if (rt == NULL)
        rt = t;
    else
        rcount = count / rt->nf; /* t: 1 int per element, rt: nf ints per element */
    long ns = (long)scount * P, nr = (long)rcount * P;
    void *smem, *rmem, *sbuf = talloc(t, ns, &smem), *rbuf = in_place ? NULL : talloc(rt, nr, &rmem);
    const tcase_t *st = in_place ? rt : t;
    void *fill = in_place ? talloc(rt, nr, &rmem) : sbuf;
    if (in_place)
        rbuf = fill;
    /* logical element j*E + e of the block for rank j, E = elements x fields */
    int per = in_place ? rcount : scount;
    for (int j = 0; j < P; j++)
        for (long k = 0; k < per; k++)
            for (int f = 0; f < st->nf; f++)
                put(st, fill, (long)j * per + k, f, gen(r, ((long)j * per + k) * st->nf + f, 0, OP_NONE));
    /* in place, the send count and type are not significant (MPICH's
     * alltoall1 passes -1 and MPI_DATATYPE_NULL) */
    int rc = in_place ? coll_alltoall(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, rbuf, rcount, rt->dt, comm)
                      : coll_alltoall(sbuf, scount, t->dt, rbuf, rcount, rt->dt, comm);
    int ok = rc == MPI_SUCCESS;
    for (int j = 0; ok && j < P; j++)
        for (long k = 0; k < rcount; k++)
            for (int f = 0; f < rt->nf; f++)
                ok &= get(rt, rbuf, (long)j * rcount + k, f) == gen(j, ((long)r * rcount + k) * rt->nf + f, 0, OP_NONE);
    ok &= holes_intact(rt, rmem, nr);
    char what[40];
    snprintf(what, sizeof what, "alltoall%s%s", in_place ? "(in-place)" : "", rt != t ? "(recvtype)" : "");
    check(ok, what, cname, t->name, "-", count, 0);
    free(smem);
    free(rmem);
}

/* Application point-to-point messages with wildcards posted across the
 * collectives must neither steal nor be stolen by the shim's traffic. */
static void test_interleaved_p2p(MPI_Comm comm, const char *cname, tcase_t *tint)
{
    int r, P, msg = -1, mark;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
    MPI_Request req;
    MPI_Status st;
    MPI_Irecv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &req);
    test_bcast(comm, cname, tint, 7, P - 1);
    test_reduce(comm, cname, tint, OP_SUM, 7, 0, 0);
    test_alltoall(comm, cname, tint, NULL, 7, 0);
    mark = 1000 + r;
    MPI_Send(&mark, 1, MPI_INT, (r + 1) % P, 77, comm);
    MPI_Wait(&req, &st);
    check(msg == 1000 + (r - 1 + P) % P && st.MPI_TAG == 77 && st.MPI_SOURCE == (r - 1 + P) % P,
          "p2p across collectives", cname, "int", "-", 1, 0);
}

/* A user sum over ints laid out backwards (extent -sizeof(int)). */
static void backward_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int k = 0; k < *len; k++)
        ((int *)inout)[-k] += ((int *)in)[-k];
}

/* A reduce of many elements of a datatype of negative extent (element k
 * lies k ints below element 0): the staging buffers must reach below the
 * first element.  Only where our algorithm is forced: MPICH 4.0.2's own
 * reduce aborts on it (munmap_chunk(): invalid pointer, n = 2). */
static void test_negative_extent(MPI_Comm comm, const char *cname)
{
    if (library_may_run("PMPI_LOGP_REDUCE"))
        return;
    int r, P, n = 100000, ok = 1;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
    MPI_Datatype back;
    MPI_Op op;
    MPI_Type_create_resized(MPI_INT, 0, -(MPI_Aint)sizeof(int), &back);
    MPI_Type_commit(&back);
    MPI_Op_create(backward_sum, 1, &op);
    int *a = malloc(sizeof(int) * (size_t)n), *s = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        a[i] = r + i;
        s[i] = -1;
    }
    ok &= coll_reduce(&a[n - 1], &s[n - 1], n, back, op, 0, comm) == MPI_SUCCESS;
    for (int i = 0; r == 0 && i < n; i++)
        ok &= s[i] == P * (P - 1) / 2 + P * i;
    check(ok, "reduce(negative extent)", cname, "int, extent -4", "user sum", n, 0);
    MPI_Op_free(&op);
    MPI_Type_free(&back);
    free(a);
    free(s);
}

/* Odd arguments that test suites and libraries pass: a datatype of size 0
 * (nothing moves, the buffer stays as it was), MPI_BOTTOM with a struct
 * of absolute addresses (ROMIO broadcasts file status this way), every
 * root. */
static void test_odd_arguments(MPI_Comm comm, const char *cname)
{
    int r, P;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
    MPI_Datatype zero;
    MPI_Type_contiguous(0, MPI_INT, &zero);
    MPI_Type_commit(&zero);
    int buf[10], ok = 1;
    for (int i = 0; i < 10; i++)
        buf[i] = 7;
    ok &= coll_bcast(buf, 10, zero, 0, comm) == MPI_SUCCESS;
    for (int i = 0; i < 10; i++)
        ok &= buf[i] == 7;
    check(ok, "bcast(size-0 type)", cname, "contiguous(0)", "-", 10, 0);
    MPI_Type_free(&zero);
#ifdef SMPI_H /* SimGrid 3.32 SMPI: a part-wise bcast from MPI_BOTTOM (packed by messages to self) came out
                 wrong at 2 of 5 ranks; MPICH and Open MPI get it right */
    return;
#endif
    for (int root = 0; root < P; root++) {
        if (!root_tested(root, P))
            continue;
        int a = r == root ? 42 + root : -1;
        double b = r == root ? 0.5 * root : -1.0;
        MPI_Aint disp[2];
        MPI_Get_address(&a, &disp[0]);
        MPI_Get_address(&b, &disp[1]);
        int bl[2] = {1, 1};
        MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, abs_type;
        MPI_Type_create_struct(2, bl, disp, types, &abs_type);
        MPI_Type_commit(&abs_type);
        int rc = coll_bcast(MPI_BOTTOM, 1, abs_type, root, comm);
        check(rc == MPI_SUCCESS && a == 42 + root && b == 0.5 * root, "bcast(MPI_BOTTOM)", cname, "absolute struct",
              "-", 1, root);
        MPI_Type_free(&abs_type);
    }
    /* all-to-all from and into MPI_BOTTOM, 2 elements a block: an int at
     * an absolute address, its extent an int's, so that element k of
     * "MPI_BOTTOM" is array[k] (the packing algorithms pack block 0 from
     * address 0, which MPI_Pack rejects) */
    int *sa = malloc(sizeof(int) * 2 * (size_t)P), *ra = malloc(sizeof(int) * 2 * (size_t)P);
    ok = 1;
    MPI_Datatype abs_s, abs_r;
    int *arr[2] = {sa, ra};
    MPI_Datatype *t[2] = {&abs_s, &abs_r};
    for (int i = 0; i < 2; i++) {
        MPI_Aint at;
        MPI_Datatype st;
        int one = 1;
        MPI_Datatype in = MPI_INT;
        MPI_Get_address(arr[i], &at);
        MPI_Type_create_struct(1, &one, &at, &in, &st);
        MPI_Type_create_resized(st, at, (MPI_Aint)sizeof(int), t[i]);
        MPI_Type_commit(t[i]);
        MPI_Type_free(&st);
    }
    for (int dir = 0; dir < 2; dir++) { /* from MPI_BOTTOM, then into it */
        for (int j = 0; j < 2 * P; j++) {
            sa[j] = 1000 * r + 10 * (j / 2) + j % 2;
            ra[j] = -1;
        }
        int rc = dir == 0 ? coll_alltoall(MPI_BOTTOM, 2, abs_s, ra, 2, MPI_INT, comm)
                          : coll_alltoall(sa, 2, MPI_INT, MPI_BOTTOM, 2, abs_r, comm);
        ok &= rc == MPI_SUCCESS;
        for (int j = 0; j < 2 * P; j++)
            ok &= ra[j] == 1000 * (j / 2) + 10 * r + j % 2;
    }
    check(ok, "alltoall(MPI_BOTTOM)", cname, "absolute int", "-", 2, 0);
    MPI_Type_free(&abs_s);
    MPI_Type_free(&abs_r);
    free(sa);
    free(ra);
    test_negative_extent(comm, cname);
}

/* Counts past INT_MAX (--entry c only): the shim leaves them to the
 * library, whose large-count call must get the whole count: 2^31 + 3
 * elements of a size-0 type (nothing moves), and with --big at 2 ranks a
 * broadcast of 2^31 + 24 bytes (in the run that forces the library's
 * bcast only: the shim leaves it to the library whatever is forced, and
 * it costs seconds of CI a run). */
static void test_large_counts(MPI_Comm comm, const char *cname, int big)
{
#if HAVE_LARGE_COUNT
    int r, P;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
    MPI_Count n = (MPI_Count)INT32_MAX + 4;
    MPI_Datatype zero;
    MPI_Type_contiguous(0, MPI_INT, &zero);
    MPI_Type_commit(&zero);
    int buf[4] = {7, 7, 7, 7}, out[4] = {7, 7, 7, 7};
    int ok = MPI_Bcast_c(buf, n, zero, 0, comm) == MPI_SUCCESS;
    ok &= MPI_Alltoall_c(buf, n, zero, out, n, zero, comm) == MPI_SUCCESS;
    for (int i = 0; i < 4; i++)
        ok &= buf[i] == 7 && out[i] == 7;
    check(ok, "bcast_c, alltoall_c(2^31 + 3 of a size-0 type)", cname, "contiguous(0)", "-", -1, 0);
    MPI_Type_free(&zero);
    const char *forced = getenv("PMPI_LOGP_BCAST");
    if (!big || P != 2 || forced == NULL || strcmp(forced, "native") != 0)
        return;
    size_t bytes = (size_t)INT32_MAX + 25;
    unsigned char *b = malloc(bytes);
    if (b == NULL)
        return;
    for (size_t i = 0; i < bytes; i += 4096)
        b[i] = r == 1 ? (unsigned char)(i / 4096 * 7 + 1) : 0;
    b[bytes - 1] = r == 1 ? 0x5A : 0;
    ok = MPI_Bcast_c(b, (MPI_Count)bytes, MPI_BYTE, 1, comm) == MPI_SUCCESS;
    for (size_t i = 0; ok && i < bytes; i += 4096)
        ok &= b[i] == (unsigned char)(i / 4096 * 7 + 1);
    ok &= b[bytes - 1] == 0x5A;
    check(ok, "bcast_c(2^31 + 24 bytes)", cname, "byte", "-", -1, 1);
    free(b);
#else
    (void)comm;
    (void)cname;
    (void)big;
#endif
}

/* Intercommunicators (the MPI library's own algorithms run: the shim must
 * hand them over whole): the lower half of world and the upper half; bcast
 * from and reduce to the lower half's rank 0 (MPI_ROOT there,
 * MPI_PROC_NULL beside it), all-to-all between the halves. */
static void test_intercomm(void)
{
    if (g_size < 2)
        return;
    int low = g_rank < g_size / 2, lr, rn;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, low, g_rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? g_size / 2 : 0, 5, &inter);
    MPI_Comm_rank(local, &lr);
    MPI_Comm_remote_size(inter, &rn);
    int v[3] = {low && lr == 0 ? 11 : -1, low && lr == 0 ? 22 : -1, low && lr == 0 ? 33 : -1}, ok = 1;
    int root = low ? (lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    ok &= coll_bcast(v, 3, MPI_INT, root, inter) == MPI_SUCCESS;
    if (!low || lr == 0)
        ok &= v[0] == 11 && v[1] == 22 && v[2] == 33;
    check(ok, "bcast(intercommunicator)", "inter", "int", "-", 3, 0);
    int mine = low ? -100 : lr + 1, sum = -1;
    ok = coll_reduce(&mine, &sum, 1, MPI_INT, MPI_SUM, root, inter) == MPI_SUCCESS;
    if (low && lr == 0)
        ok &= sum == rn * (rn + 1) / 2;
    else if (low)
        ok &= sum == -1; /* untouched beside the root */
    check(ok, "reduce(intercommunicator)", "inter", "int", "sum", 1, 0);
    int my2 = low ? 100 + lr : lr + 1, got2 = -1; /* each group gets the other's sum */
    ok = coll_allreduce(&my2, &got2, 1, MPI_INT, MPI_SUM, inter) == MPI_SUCCESS;
    ok &= got2 == (low ? rn * (rn + 1) / 2 : 100 * rn + rn * (rn - 1) / 2);
    check(ok, "allreduce(intercommunicator)", "inter", "int", "sum", 1, 0);
    int *s = malloc(sizeof(int) * (size_t)rn), *d = malloc(sizeof(int) * (size_t)rn);
    for (int j = 0; j < rn; j++)
        s[j] = (low ? 1000 : 2000) + lr * 10 + j;
    ok = coll_alltoall(s, 1, MPI_INT, d, 1, MPI_INT, inter) == MPI_SUCCESS;
    for (int j = 0; j < rn; j++)
        ok &= d[j] == (low ? 2000 : 1000) + j * 10 + lr;
    check(ok, "alltoall(intercommunicator)", "inter", "int", "-", 1, 0);
    free(s);
    free(d);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

static void run_comm(MPI_Comm comm, const char *cname, tcase_t *cases, int ncases, tcase_t *tint, tcase_t *tquad,
                     int big)
{
    int P;
    MPI_Comm_size(comm, &P);
    static const int counts[] = {0, 1, 7};
    for (int c = 0; c < ncases; c++) {
        const tcase_t *t = &cases[c];
        for (int ci = 0; ci < 3; ci++) {
            int n = counts[ci];
            for (int root = 0; root < P; root++) {
                if (!root_tested(root, P))
                    continue;
                test_bcast(comm, cname, t, n, root);
                for (int o = 0; o < t->nops; o++) {
                    test_reduce(comm, cname, t, t->ops[o], n, root, 0);
                    test_reduce(comm, cname, t, t->ops[o], n, root, 1);
                }
            }
            test_alltoall(comm, cname, t, NULL, n, 0);
            test_alltoall(comm, cname, t, NULL, n, 1);
            for (int o = 0; o < t->nops; o++) {
                test_allreduce(comm, cname, t, t->ops[o], n, 0);
                test_allreduce(comm, cname, t, t->ops[o], n, 1);
            }
        }
    }
    /* bcast with other datatypes at the root than elsewhere: a flat run
     * of 4 ints against ints, and a vector (2 ints in a 16-byte extent)
     * against ints, both ways; part-wise schedules cut such messages */
    for (int root = 0; root < P; root++)
        for (int ci = 0; ci < 2 && root_tested(root, P); ci++) {
            int ints = ci ? 4 * 3001 : 4 * 7;
            test_bcast_mixed(comm, cname, tquad, tint, ints, root);
            test_bcast_mixed(comm, cname, tint, tquad, ints, root);
            test_bcast_mixed(comm, cname, &cases[3], tint, ints, root); /* cases[3]: "vector" */
            test_bcast_mixed(comm, cname, tint, &cases[3], ints, root);
        }
    test_alltoall(comm, cname, tint, tquad, 4 * 7, 0);
    test_alltoall(comm, cname, tint, tquad, 4 * 1, 1);
    /* above MPICH's 2 KiB reduce-scatter-gather threshold, every root */
    for (int root = 0; root < P; root++) {
        if (!root_tested(root, P))
            continue;
        test_reduce(comm, cname, &cases[0], OP_SUM, 700, root, 1);
        test_reduce(comm, cname, &cases[0], OP_MAX, 700, root, 0);
        test_reduce(comm, cname, &cases[ncases - 1], OP_MATMUL, 300, root, 1);
    }
    /* above MPICH's 2 KiB allreduce threshold, and a count that leaves
     * parts of a ring empty (fewer elements than ranks) */
    test_allreduce(comm, cname, &cases[0], OP_SUM, 1000, 1);
    test_allreduce(comm, cname, &cases[1], OP_MAX, 1000, 0);
    test_allreduce(comm, cname, &cases[ncases - 1], OP_MATMUL, 300, 0);
    test_allreduce(comm, cname, &cases[0], OP_SUM, P > 1 ? P - 1 : 1, 0);
    /* an idempotent operator on integers above the libraries' eager
     * limits: dissemination's receives are all posted before its sends */
    test_allreduce(comm, cname, &cases[0], OP_MAX, 20001, 0);
    test_allreduce_bits(comm, cname, 1000);
    test_interleaved_p2p(comm, cname, tint);
    if (big) {
        /* every type and operator at a size the large-message schedules
         * cut into parts (pipeline segments, P parts of scatter-allgather
         * and reduce-scatter-gather): parts end on element boundaries of
         * vectors, structs with holes and a negative lower bound, pairs */
        for (int c = 0; c < ncases; c++) {
            const tcase_t *t = &cases[c];
            test_bcast(comm, cname, t, 20001, P - 1);
            for (int o = 0; o < t->nops; o++) {
                test_reduce(comm, cname, t, t->ops[o], 20001, 0, 1);
                test_reduce(comm, cname, t, t->ops[o], 20001, P / 2, 0);
                test_allreduce(comm, cname, t, t->ops[o], 20001, o % 2);
            }
        }
        test_allreduce(comm, cname, &cases[ncases - 1], OP_MATMUL, 70000, 1);
        test_allreduce_bits(comm, cname, 70000);
        /* a non-commutative reduce of 16 MiB to root 0, in place and not:
         * a pipeline's large synchronous segments then fill the send
         * windows around the chain that ends back at the root (it hung
         * until the root's result receives were posted early) */
        test_reduce(comm, cname, &cases[ncases - 1], OP_MATMUL, 1 << 20, 0, 0);
        test_reduce(comm, cname, &cases[ncases - 1], OP_MATMUL, 1 << 20, 0, 1);
        int root = P - 1;
        test_bcast(comm, cname, tint, 1000000, root);
        test_reduce(comm, cname, tint, OP_SUM, 1000000, root, 0);
        test_reduce(comm, cname, tint, OP_SUM, 1000000, root, 1);
        test_allreduce(comm, cname, tint, OP_SUM, 1000000, 0);
        test_alltoall(comm, cname, tint, NULL, 1000000 / P + 1, 0);
        /* blocks of 9 MiB at P = 2: node-aggregate's leader would stage
         * 72 MiB, past what the scratch keeps, and runs the direct
         * exchange instead on every rank */
        if (P == 2)
            test_alltoall(comm, cname, tint, NULL, (9 << 20) / 4, 0);
    }
}

int main(int argc, char **argv)
{
    int big = 0, no_struct = 0, world_only = 0;
    for (int i = 1; i < argc; i++) {
        big |= strcmp(argv[i], "--big") == 0;
        world_only |= strcmp(argv[i], "--world-only") == 0;
        no_struct |= strcmp(argv[i], "--no-struct") == 0;
        g_few_roots |= strcmp(argv[i], "--few-roots") == 0;
        if (strcmp(argv[i], "--entry") == 0 && i + 1 < argc) {
            if (strcmp(argv[++i], "c") == 0 && HAVE_LARGE_COUNT) {
                g_entry = ENTRY_LARGE_COUNT;
            } else if (strcmp(argv[i], "blocking") != 0) {
                fprintf(stderr, "test_coll: --entry %s: not an entry point of this MPI (blocking%s)\n", argv[i],
                        HAVE_LARGE_COUNT ? ", c" : "");
                return 2;
            }
        }
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    MPI_Op_create(user_int_sum, 1, &op_user_sum);
    MPI_Op_create(user_struct_sum, 1, &op_struct_sum);
    MPI_Op_create(user_vec_sum, 1, &op_vec_sum);
    MPI_Op_create(user_matmul, 0, &op_matmul);

    MPI_Datatype vec, st0, strct, quad, mat;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec); /* ints at 0 and 12, extent 16 */
    MPI_Type_commit(&vec);
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {-16, 0};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, disp, types, &st0);
    MPI_Type_create_resized(st0, -16, 32, &strct); /* negative lb, holes */
    MPI_Type_commit(&strct);
    MPI_Type_contiguous(4, MPI_INT, &quad);
    MPI_Type_commit(&quad);
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);

    tcase_t cases[] = {
        {"int", MPI_INT, 1, 4, 0, {0}, {'i'}, {OP_SUM, OP_MAX, OP_PROD, OP_USER_SUM}, 4},
        {"double", MPI_DOUBLE, 1, 8, 0, {0}, {'d'}, {OP_SUM, OP_MAX, OP_PROD}, 3},
        {"double_int", MPI_DOUBLE_INT, 2, 16, 0, {0, 8}, {'d', 'i'}, {OP_MAXLOC}, 1},
        {"vector", vec, 2, 16, 0, {0, 12}, {'i', 'i'}, {OP_USER_SUM}, 1}, /* MPICH: no MPI_SUM on vectors */
        {"struct", strct, 2, 32, 16, {-16, 0}, {'i', 'd'}, {OP_USER_SUM}, 1},
        {"mat2x2", mat, 4, 16, 0, {0, 4, 8, 12}, {'u', 'u', 'u', 'u'}, {OP_MATMUL}, 1},
    };
    int ncases = (int)(sizeof cases / sizeof cases[0]);
    if (no_struct) { /* keep the matrix case last: run_comm uses cases[ncases - 1] */
        cases[4] = cases[5];
        ncases--;
    }
    tcase_t tquad = {"int4", quad, 4, 16, 0, {0, 4, 8, 12}, {'i', 'i', 'i', 'i'}, {OP_SUM}, 1};

    run_comm(MPI_COMM_WORLD, "world", cases, ncases, &cases[0], &tquad, big);
    test_odd_arguments(MPI_COMM_WORLD, "world");
    if (g_entry == ENTRY_LARGE_COUNT)
        test_large_counts(MPI_COMM_WORLD, "world", big);
#ifndef SMPI_H /* SimGrid 3.32 SMPI has no MPI_Intercomm_create */
    test_intercomm();
#endif
    /* a sub-communicator with reversed rank order, and a named half */
    MPI_Comm rev, half;
    MPI_Comm_split(MPI_COMM_WORLD, 0, g_size - g_rank, &rev);
    if (!world_only)
        run_comm(rev, "reversed", cases, ncases, &cases[0], &tquad, 0);
    MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, g_rank, &half);
    MPI_Comm_set_name(half, g_rank % 2 ? "odd-half" : "even-half");
    if (!world_only)
        run_comm(half, "half", cases, ncases, &cases[0], &tquad, 0);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);

    int local[2] = {g_pass, g_fail}, total[2];
    /* the tally by a collective the shim does not take (tally.h) */
    tally_ints(local, total, 2, MPI_SUM, MPI_COMM_WORLD);
    if (g_rank == 0)
        printf("test_coll: P=%d: %d passed, %d failed\n", g_size, total[0], total[1]);
    MPI_Type_free(&vec);
    MPI_Type_free(&st0);
    MPI_Type_free(&strct);
    MPI_Type_free(&quad);
    MPI_Type_free(&mat);
    MPI_Op_free(&op_user_sum);
    MPI_Op_free(&op_struct_sum);
    MPI_Op_free(&op_vec_sum);
    MPI_Op_free(&op_matmul);
    MPI_Finalize();
    return total[1] ? 1 : 0;
}
