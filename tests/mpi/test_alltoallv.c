/* MPI_Alltoallv under the shim, checked element by element against what
 * every rank computes for itself: a count matrix drawn from a seed (zeros
 * included), blocks at displacements in a shuffled order with gaps that
 * must stay untouched, every value a function of (sender, receiver,
 * index).  Patterns: uniform, random, skewed (one rank's blocks 1000
 * times the others': the ranks' size classes differ, so their decisions
 * may too), all empty, a single nonzero pair; MPI_IN_PLACE (a symmetric
 * matrix); derived types on both sides (a strided vector sent, a
 * contiguous pair received); the large-count entry where the library has
 * it; an empty signature spelt differently on different ranks (count 1 of
 * a type of no data, count 0 of MPI_INT); sub-communicators (split in
 * two, and reversed rank order).  Built without the shim: run under
 * LD_PRELOAD (tests/mpi/run_alltoallv.sh).
 * Prints "test_alltoallv: N passed, M failed" (cases over every rank). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "tally.h"

enum { PAT_UNIFORM, PAT_RANDOM, PAT_SKEWED, PAT_EMPTY, PAT_ONE_PAIR, PAT_COUNT };
static const char *const pat_name[PAT_COUNT] = {"uniform", "random", "skewed", "empty", "one-pair"};

static int g_cases, g_failed_cases, g_failures, g_world_rank;

/* A deterministic hash of the arguments (every rank draws the same). */
static unsigned mix(unsigned a, unsigned b, unsigned c)
{
    unsigned h = 2166136261u;
    unsigned v[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        h ^= v[i];
        h *= 16777619u;
        h ^= h >> 13;
    }
    return h;
}

/* Elements rank i sends to rank j under pattern pat (symmetric: the same
 * both ways, for MPI_IN_PLACE). */
static int count_of(int pat, unsigned seed, int P, int i, int j, int symmetric, int scale)
{
    if (symmetric && i > j) {
        int t = i;
        i = j;
        j = t;
    }
    unsigned h = mix(seed, (unsigned)i, (unsigned)j);
    switch (pat) {
    case PAT_UNIFORM:
        return 3 * scale;
    case PAT_RANDOM:
        return h % 4 == 0 ? 0 : (int)(h % (unsigned)(40 * scale + 1));
    case PAT_SKEWED: /* rank P/2's blocks large, the others' tiny */
        return i == P / 2 || j == P / 2 ? 500 * scale + (int)(h % 100) : (int)(h % 3);
    case PAT_EMPTY:
        return 0;
    default: /* PAT_ONE_PAIR */
        return (i == 0 && j == P - 1) || (symmetric && i == P - 1 && j == 0) ? 1000 * scale : 0;
    }
}

static int value_of(int src, int dst, long k)
{
    return (int)((src * 1000003L + dst * 1009L + k * 7L) % 2147483647L);
}

/* Displacements of P blocks of counts c[] (elements, `unit` ints each):
 * placed in a shuffled order, each after a gap of 0-2 units; *total: the
 * buffer's length in units. */
static void place(const int *c, int P, unsigned seed, int *displ, long *total)
{
    int *order = malloc(sizeof(int) * (size_t)P);
    for (int j = 0; j < P; j++)
        order[j] = j;
    for (int j = P - 1; j > 0; j--) {
        int k = (int)(mix(seed, 77u, (unsigned)j) % (unsigned)(j + 1)), t = order[j];
        order[j] = order[k];
        order[k] = t;
    }
    long at = 0;
    for (int x = 0; x < P; x++) {
        int j = order[x];
        at += mix(seed, 99u, (unsigned)j) % 3;
        displ[j] = (int)at;
        at += c[j];
    }
    *total = at + 1;
    free(order);
}

static void fail(const char *what, const char *pat, int P, int j, long k, int got, int want)
{
    if (g_failures++ < 10)
        fprintf(stderr, "test_alltoallv: rank %d: %s %s P=%d: from %d element %ld: got %d, want %d\n", g_world_rank,
                what, pat, P, j, k, got, want);
}

/* One call: pattern pat, seed, kind 0 plain ints, 1 in place, 2 derived
 * types, 3 the large-count entry; checks every element and every gap. */
static void run_case(MPI_Comm comm, int pat, unsigned seed, int kind, int scale)
{
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    int sym = kind == 1, unit = kind == 2 ? 2 : 1; /* derived: an element is 2 ints */
    int *sc = malloc(sizeof(int) * (size_t)P * 4), *sd = sc + P, *rc = sc + 2 * P, *rd = sc + 3 * P;
    for (int j = 0; j < P; j++) {
        sc[j] = count_of(pat, seed, P, rank, j, sym, scale);
        rc[j] = count_of(pat, seed, P, j, rank, sym, scale);
    }
    long stotal, rtotal;
    place(sc, P, seed ^ (unsigned)rank, sd, &stotal);
    place(rc, P, seed ^ 0x5555u ^ (unsigned)rank, rd, &rtotal);
    /* the send side of the derived case strides 3 ints per element */
    int sstride = kind == 2 ? 3 : 1;
    int *sbuf = malloc(sizeof(int) * (size_t)(stotal * sstride + 1)), *rbuf = malloc(sizeof(int) * (size_t)(rtotal * unit + 1));
    for (long x = 0; x < stotal * sstride; x++)
        sbuf[x] = -7;
    for (long x = 0; x < rtotal * unit; x++)
        rbuf[x] = -1;
    for (int j = 0; j < P; j++) {
        for (long k = 0; k < (long)sc[j] * unit; k++) {
            if (kind == 2) /* element e = k / 2 at sd[j] + e; its ints at stride positions 0 and 2 */
                sbuf[(sd[j] + k / 2) * 3 + (k % 2) * 2] = value_of(rank, j, k);
            else
                sbuf[sd[j] + k] = value_of(rank, j, k);
        }
        if (kind == 1) /* in place: the data to send sits in the receive blocks */
            for (long k = 0; k < rc[j]; k++)
                rbuf[rd[j] + k] = value_of(rank, j, k);
    }
    int err = MPI_SUCCESS;
    if (kind == 0) {
        err = MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, comm);
    } else if (kind == 1) {
        err = MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, rbuf, rc, rd, MPI_INT, comm);
    } else if (kind == 2) {
        MPI_Datatype vec, svec, pair;
        MPI_Type_vector(2, 1, 2, MPI_INT, &vec); /* ints 0 and 2 of a 3-int element */
        MPI_Type_create_resized(vec, 0, 3 * sizeof(int), &svec);
        MPI_Type_contiguous(2, MPI_INT, &pair);
        MPI_Type_commit(&svec);
        MPI_Type_commit(&pair);
        err = MPI_Alltoallv(sbuf, sc, sd, svec, rbuf, rc, rd, pair, comm);
        MPI_Type_free(&vec);
        MPI_Type_free(&svec);
        MPI_Type_free(&pair);
    } else {
#if MPI_VERSION >= 4
        MPI_Count *c4 = malloc(sizeof(MPI_Count) * (size_t)P * 2);
        MPI_Aint *d4 = malloc(sizeof(MPI_Aint) * (size_t)P * 2);
        for (int j = 0; j < P; j++) {
            c4[j] = sc[j];
            c4[P + j] = rc[j];
            d4[j] = sd[j];
            d4[P + j] = rd[j];
        }
        err = MPI_Alltoallv_c(sbuf, c4, d4, MPI_INT, rbuf, c4 + P, d4 + P, MPI_INT, comm);
        free(c4);
        free(d4);
#endif
    }
    g_cases++;
    int before = g_failures;
    const char *what = kind == 0 ? "ints" : kind == 1 ? "in-place" : kind == 2 ? "derived" : "large-count";
    if (err != MPI_SUCCESS)
        fail(what, pat_name[pat], P, -1, -1, err, MPI_SUCCESS);
    /* every element of every block, and every gap untouched */
    char *mark = calloc((size_t)(rtotal * unit + 1), 1);
    for (int j = 0; j < P; j++)
        for (long k = 0; k < (long)rc[j] * unit; k++) {
            long at = (long)rd[j] * unit + k;
            mark[at] = 1;
            if (rbuf[at] != value_of(j, rank, k)) {
                fail(what, pat_name[pat], P, j, k, rbuf[at], value_of(j, rank, k));
                break;
            }
        }
    for (long x = 0; x < rtotal * unit; x++)
        if (!mark[x] && rbuf[x] != -1) {
            fail(what, pat_name[pat], P, -1, x, rbuf[x], -1);
            break;
        }
    free(mark);
    g_failed_cases += g_failures > before;
    free(sbuf);
    free(rbuf);
    free(sc);
}

/* Empty signatures in two spellings (MPICH's coll/alltoallw_zeros): even
 * ranks pass count 1 of a type of no data, odd ranks count 0 of MPI_INT,
 * plain and in place.  Legal, and nothing moves; a rank that ran the
 * library's exchange while its peer ran the shim's would wait forever
 * (the runner's timeout), so a normal call follows to show the ranks are
 * still in step.  The buffers must stay untouched. */
static void run_empty_types(MPI_Comm comm)
{
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    MPI_Datatype none;
    MPI_Type_contiguous(0, MPI_INT, &none);
    MPI_Type_commit(&none);
    int *c = malloc(sizeof(int) * (size_t)P * 2), *d = c + P;
    for (int j = 0; j < P; j++) {
        c[j] = rank % 2 ? 0 : 1;
        d[j] = 0;
    }
    MPI_Datatype t = rank % 2 ? MPI_INT : none;
    for (int in_place = 0; in_place < 2; in_place++) {
        int sbuf = -7, rbuf = -1;
        int err = in_place ? MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, &rbuf, c, d, t, comm)
                           : MPI_Alltoallv(&sbuf, c, d, t, &rbuf, c, d, t, comm);
        g_cases++;
        int before = g_failures;
        const char *what = in_place ? "in-place" : "ints";
        if (err != MPI_SUCCESS)
            fail(what, "empty-types", P, -1, -1, err, MPI_SUCCESS);
        else if (rbuf != -1 || sbuf != -7)
            fail(what, "empty-types", P, -1, 0, rbuf != -1 ? rbuf : sbuf, rbuf != -1 ? -1 : -7);
        g_failed_cases += g_failures > before;
    }
    MPI_Type_free(&none);
    free(c);
    run_case(comm, PAT_UNIFORM, 4242u, 0, 1);
}

/* Calls legal on every rank whose buffers or types only some ranks pass,
 * each followed by a normal call (the ranks must still be in step): rank 0
 * receives into MPI_BOTTOM, its blocks' addresses in the receive type's
 * lower bound (any MPI) or in MPI_Aint displacements (the large-count
 * form); the last rank moves nothing and passes one array as both
 * buffers (MPICH says MPI_ERR_BUFFER there, its peers go on) or a type
 * the shim cannot size.  The shim refused these on the one rank and ran
 * its exchange on the others: each waited for the other. */
static void run_bottom_and_idle(MPI_Comm comm)
{
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    int *sb = malloc(sizeof(int) * (size_t)P * 2), *rb = malloc(sizeof(int) * (size_t)P * 2);
    int *c = malloc(sizeof(int) * (size_t)P * 2), *d = c + P;
    for (int form = 0; form < 4; form++) {
#ifdef LOGP_BUILD_SMPI
        /* SimGrid 3.32 SMPI crashes on a type whose lower bound is an
         * absolute address (its own alltoallv too), and under the shim on
         * the idle rank's MPI_ERR_BUFFER (not analysed): MPICH and Open MPI
         * run both */
        if (form == 0 || form == 2)
            continue;
#endif
        int idle = form >= 2 && P > 1 && rank == P - 1; /* forms 2, 3: the last rank moves nothing */
        for (int j = 0; j < 2 * P; j++) {
            sb[j] = rank * 1000 + j;
            rb[j] = -1;
        }
        for (int j = 0; j < P; j++) {
            c[j] = form >= 2 && P > 1 && (rank == P - 1 || j == P - 1) ? 0 : 2;
            d[j] = 2 * j;
        }
        int err = MPI_SUCCESS;
        if (form == 0 && rank == 0) { /* MPI_BOTTOM, the buffer's address in the type's lower bound */
            MPI_Aint at, lb;
            MPI_Get_address(rb, &at);
            int one = 1;
            MPI_Datatype at_rb, blocks;
            MPI_Type_create_struct(1, &one, &at, (MPI_Datatype[]){MPI_INT}, &at_rb);
            MPI_Type_get_extent(at_rb, &lb, &at);
            MPI_Type_create_resized(at_rb, lb, (MPI_Aint)sizeof(int), &blocks);
            MPI_Type_commit(&blocks);
            err = MPI_Alltoallv(sb, c, d, MPI_INT, MPI_BOTTOM, c, d, blocks, comm);
            MPI_Type_free(&blocks);
            MPI_Type_free(&at_rb);
        } else if (form == 1 && rank == 0) { /* MPI_BOTTOM, absolute displacements */
#if MPI_VERSION >= 4
            MPI_Count *cc = malloc(sizeof(MPI_Count) * (size_t)P);
            MPI_Aint *sd = malloc(sizeof(MPI_Aint) * (size_t)P * 2), *rd = sd + P;
            for (int j = 0; j < P; j++) {
                MPI_Aint at;
                MPI_Get_address(rb + 2 * j, &at);
                cc[j] = 2;
                sd[j] = 2 * j;
                rd[j] = at / (MPI_Aint)sizeof(int); /* in extents of MPI_INT: an int's address is a multiple */
            }
            err = MPI_Alltoallv_c(sb, cc, sd, MPI_INT, MPI_BOTTOM, cc, rd, MPI_INT, comm);
            free(sd);
            free(cc);
#else
            err = MPI_Alltoallv(sb, c, d, MPI_INT, rb, c, d, MPI_INT, comm);
#endif
        } else if (form == 2 && idle) { /* one array twice: nothing moves */
            err = MPI_Alltoallv(rb, c, d, MPI_INT, rb, c, d, MPI_INT, comm);
        } else if (form == 3 && idle) { /* a type of more than INT_MAX bytes, with no data */
            MPI_Datatype huge;
            MPI_Type_contiguous(1 << 20, MPI_INT, &huge);
            MPI_Datatype huger;
            MPI_Type_contiguous(1 << 10, huge, &huger);
            MPI_Type_commit(&huger);
            err = MPI_Alltoallv(sb, c, d, huger, rb, c, d, huger, comm);
            MPI_Type_free(&huger);
            MPI_Type_free(&huge);
        } else {
            err = MPI_Alltoallv(sb, c, d, MPI_INT, rb, c, d, MPI_INT, comm);
        }
        static const char *const what[] = {"bottom-lb", "bottom-displ", "idle-alias", "idle-huge-type"};
        g_cases++;
        int before = g_failures, cls = MPI_SUCCESS;
        MPI_Error_class(err, &cls);
        if (form == 2 && idle && cls == MPI_ERR_BUFFER) /* MPICH's answer to one array twice, even with no data */
            err = MPI_SUCCESS;
        if (err != MPI_SUCCESS)
            fail(what[form], "one rank", P, -1, -1, err, MPI_SUCCESS);
        for (int j = 0; j < P && err == MPI_SUCCESS; j++)
            for (int k = 0; k < 2; k++) {
                int want = c[j] ? j * 1000 + 2 * rank + k : -1;
                if (rb[2 * j + k] != want)
                    fail(what[form], "one rank", P, j, k, rb[2 * j + k], want);
            }
        g_failed_cases += g_failures > before;
        run_case(comm, PAT_RANDOM, 99u + (unsigned)form, 0, 1);
    }
    free(c);
    free(rb);
    free(sb);
}

/* Application messages with wildcards pending across the exchange must
 * neither steal nor be stolen by its traffic; and on one rank MPICH
 * 4.0.2's own MPI_Alltoallv hangs beside such a receive (as its
 * MPI_Alltoall does), so the shim must not hand it the call there. */
static void run_interleaved_p2p(MPI_Comm comm)
{
    int r, P, msg = -1, mark, ok = 1;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &P);
    int *c = malloc(sizeof(int) * (size_t)P), *d = malloc(sizeof(int) * (size_t)P);
    int *sb = malloc(sizeof(int) * 3 * (size_t)P), *rb = malloc(sizeof(int) * 3 * (size_t)P);
    for (int j = 0; j < P; j++) {
        c[j] = 3;
        d[j] = 3 * (P - 1 - j); /* blocks in reverse order */
        for (int k = 0; k < 3; k++)
            sb[d[j] + k] = value_of(r, j, k);
    }
    MPI_Request req;
    MPI_Status st;
    MPI_Irecv(&msg, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &req);
    int rc = MPI_Alltoallv(sb, c, d, MPI_INT, rb, c, d, MPI_INT, comm);
    mark = 1000 + r;
    MPI_Send(&mark, 1, MPI_INT, (r + 1) % P, 77, comm);
    MPI_Wait(&req, &st);
    for (int j = 0; j < P; j++)
        for (int k = 0; k < 3; k++)
            if (rc == MPI_SUCCESS && rb[d[j] + k] != value_of(j, r, k)) {
                fail("interleaved p2p", "uniform", P, j, k, rb[d[j] + k], value_of(j, r, k));
                ok = 0;
            }
    if (rc != MPI_SUCCESS || msg != 1000 + (r - 1 + P) % P || st.MPI_TAG != 77 || st.MPI_SOURCE != (r - 1 + P) % P) {
        fail("interleaved p2p: the wildcard receive", "uniform", P, st.MPI_SOURCE, st.MPI_TAG, msg, 1000 + (r - 1 + P) % P);
        ok = 0;
    }
    g_cases++;
    g_failed_cases += !ok;
    free(rb);
    free(sb);
    free(d);
    free(c);
}

static void run_all(MPI_Comm comm, int scale)
{
    for (int pat = 0; pat < PAT_COUNT; pat++)
        for (int kind = 0; kind < 4; kind++) {
#if MPI_VERSION < 4
            if (kind == 3)
                continue;
#endif
            run_case(comm, pat, 12345u + (unsigned)pat * 31u + (unsigned)kind, kind, scale);
        }
    run_interleaved_p2p(comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int world = 1;
    for (int i = 1; i < argc; i++)
        world &= strcmp(argv[i], "--world-only") != 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_world_rank);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* small and large blocks: classes from bytes to hundreds of KiB */
    run_all(MPI_COMM_WORLD, 1);
    run_empty_types(MPI_COMM_WORLD);
    run_bottom_and_idle(MPI_COMM_WORLD);
    run_all(MPI_COMM_WORLD, 64);
    /* the same call repeated: the decision kept from call to call */
    for (int r = 0; r < 5; r++)
        run_case(MPI_COMM_WORLD, PAT_RANDOM, 777u + (unsigned)r, 0, 8);
    if (world && size > 1) {
        MPI_Comm half, reversed;
        MPI_Comm_split(MPI_COMM_WORLD, g_world_rank % 2, g_world_rank, &half);
        MPI_Comm_split(MPI_COMM_WORLD, 0, size - g_world_rank, &reversed);
        MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(reversed, MPI_ERRORS_RETURN);
        run_all(half, 16);
        run_all(reversed, 4);
        MPI_Comm_free(&half);
        MPI_Comm_free(&reversed);
    }
    int mine[2] = {g_cases, g_failed_cases}, all[2];
    tally_ints(mine, all, 2, MPI_SUM, MPI_COMM_WORLD); /* not through the shim's allreduce */
    if (g_world_rank == 0)
        printf("test_alltoallv: %d passed, %d failed\n", all[0] - all[1], all[1]);
    MPI_Finalize();
    return all[1] != 0;
}
