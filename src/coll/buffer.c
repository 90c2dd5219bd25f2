/* Scratch buffers laid out like the user's, and typed local copies. */
#include "buffer.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

size_t logp_buffer_span(int count, MPI_Datatype dt)
{
    MPI_Aint lb, extent, tlb, textent;
    PMPI_Type_get_extent(dt, &lb, &extent);
    PMPI_Type_get_true_extent(dt, &tlb, &textent);
    size_t span = count > 0 ? (size_t)textent + (size_t)(count - 1) * (size_t)(extent < 0 ? -extent : extent) : 1;
    return span > 0 ? span : 1;
}

void *logp_buffer_base(void *mem, int count, MPI_Datatype dt)
{
    MPI_Aint lb, extent, tlb, textent;
    PMPI_Type_get_extent(dt, &lb, &extent);
    PMPI_Type_get_true_extent(dt, &tlb, &textent);
    /* a negative extent lays elements 1, 2, .. below element 0 */
    MPI_Aint below = count > 1 && extent < 0 ? (MPI_Aint)(count - 1) * -extent : 0;
    return (char *)mem - tlb + below;
}

int logp_buffer_alloc(logp_buffer_t *b, int count, MPI_Datatype dt)
{
    b->mem = malloc(logp_buffer_span(count, dt));
    if (b->mem == NULL) {
        b->base = NULL;
        return MPI_ERR_NO_MEM;
    }
    b->base = logp_buffer_base(b->mem, count, dt);
    return MPI_SUCCESS;
}

void *logp_scratch_get(logp_scratch_t *s, size_t bytes)
{
    if (s != NULL && s->fail)
        return NULL;
    bytes = bytes > 0 ? bytes : 1;
    if (s == NULL || bytes > LOGP_SCRATCH_KEEP || __atomic_exchange_n(&s->busy, 1, __ATOMIC_ACQUIRE))
        return malloc(bytes);
    if (s->size < bytes) {
        /* s->mem never holds a freed address: another thread's own block,
         * malloc'ed meanwhile, may get it, and logp_scratch_put tells the
         * region by its address */
        void *old = s->mem;
        __atomic_store_n(&s->mem, NULL, __ATOMIC_RELEASE);
        s->size = 0;
        free(old);
        void *grown = malloc(bytes);
        if (grown == NULL) {
            __atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
            return NULL;
        }
        s->size = bytes;
        __atomic_store_n(&s->mem, grown, __ATOMIC_RELEASE);
    }
    return s->mem;
}

void logp_scratch_put(logp_scratch_t *s, void *p)
{
    if (s != NULL && p != NULL && p == __atomic_load_n(&s->mem, __ATOMIC_ACQUIRE))
        __atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
    else
        free(p);
}

void logp_scratch_free(logp_scratch_t *s)
{
    if (__atomic_exchange_n(&s->busy, 1, __ATOMIC_ACQUIRE))
        return; /* in use: kept */
    free(s->mem);
    s->mem = NULL;
    s->size = 0;
    __atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
}

void logp_buffer_free(logp_buffer_t *b)
{
    free(b->mem);
    b->mem = b->base = NULL;
}

int logp_buffer_flat(MPI_Datatype dt)
{
    MPI_Aint lb, extent, tlb, textent;
    int size, ni, na, nd, combiner;
    if (PMPI_Type_size(dt, &size) != MPI_SUCCESS || PMPI_Type_get_extent(dt, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(dt, &tlb, &textent) != MPI_SUCCESS ||
        PMPI_Type_get_envelope(dt, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
        return 0;
    if (tlb != 0 || textent != size || extent != size)
        return 0;
    if (combiner == MPI_COMBINER_NAMED)
        return 1;
    /* a struct or indexed type can fill its extent with its fields in
     * another order than its type map: only runs of flat types are flat */
    if ((combiner != MPI_COMBINER_CONTIGUOUS && combiner != MPI_COMBINER_DUP) || ni > 1 || na != 0 || nd != 1)
        return 0;
    int ints[1];
    MPI_Aint addrs[1];
    MPI_Datatype old;
    if (PMPI_Type_get_contents(dt, ni, na, nd, ints, addrs, &old) != MPI_SUCCESS)
        return 0;
    int flat = logp_buffer_flat(old);
    if (PMPI_Type_get_envelope(old, &ni, &na, &nd, &combiner) == MPI_SUCCESS && combiner != MPI_COMBINER_NAMED)
        PMPI_Type_free(&old);
    return flat;
}

int logp_buffer_named(MPI_Datatype dt)
{
    int ni, na, nd, combiner;
    return PMPI_Type_get_envelope(dt, &ni, &na, &nd, &combiner) == MPI_SUCCESS && combiner == MPI_COMBINER_NAMED;
}

int logp_buffer_check(MPI_Datatype dt, MPI_Comm comm)
{
    int pos = 0;
    char none[1];
    if (logp_buffer_named(dt))
        return MPI_SUCCESS; /* predefined: committed */
    return PMPI_Pack(none, 0, dt, none, 0, &pos, comm);
}

int logp_buffer_copy(const void *src, int scount, MPI_Datatype st, void *dst, int rcount, MPI_Datatype rt,
                     MPI_Comm comm, int tag)
{
    int ssize, rsize;
    if (src == dst && st == rt && scount == rcount)
        return MPI_SUCCESS;
    if (PMPI_Type_size(st, &ssize) == MPI_SUCCESS && PMPI_Type_size(rt, &rsize) == MPI_SUCCESS &&
        (size_t)ssize * (size_t)scount == (size_t)rsize * (size_t)rcount && logp_buffer_flat(st) &&
        (rt == st || logp_buffer_flat(rt))) {
        memmove(dst, src, (size_t)ssize * (size_t)scount);
        return MPI_SUCCESS;
    }
    int me;
    PMPI_Comm_rank(comm, &me);
    return logp_engine_sendrecv(src, scount, st, me, tag, dst, rcount, rt, me, tag, comm,
                         MPI_STATUS_IGNORE);
}

/* Bytes of `count` elements of dt if they fit in `room`, else -1. */
static int logp_buffer_packed(int count, MPI_Datatype dt, int room)
{
    int size = 0;
    if (PMPI_Type_size(dt, &size) != MPI_SUCCESS || size < 0 || (long long)count * size > room)
        return -1;
    return count * size;
}

int logp_buffer_pack(const void *src, int count, MPI_Datatype dt, void *out, int outsize, int *pos, MPI_Comm comm,
                     int tag)
{
    if (src != MPI_BOTTOM)
        return PMPI_Pack(src, count, dt, out, outsize, pos, comm);
    int n = logp_buffer_packed(count, dt, outsize - *pos);
    int rc = n < 0 ? MPI_ERR_TRUNCATE : logp_buffer_copy(src, count, dt, (char *)out + *pos, n, MPI_PACKED, comm, tag);
    if (rc == MPI_SUCCESS)
        *pos += n;
    return rc;
}

int logp_buffer_unpack(const void *in, int insize, int *pos, void *dst, int count, MPI_Datatype dt, MPI_Comm comm,
                       int tag)
{
    if (dst != MPI_BOTTOM)
        return PMPI_Unpack(in, insize, pos, dst, count, dt, comm);
    int n = logp_buffer_packed(count, dt, insize - *pos);
    int rc = n < 0 ? MPI_ERR_TRUNCATE : logp_buffer_copy((const char *)in + *pos, n, MPI_PACKED, dst, count, dt, comm, tag);
    if (rc == MPI_SUCCESS)
        *pos += n;
    return rc;
}

int logp_buffer_got(int rc, const MPI_Status *status, MPI_Datatype dt, int len)
{
    /* bytes where they fit an int (MPI counts 0 elements of a type of size
     * 0), else elements */
    int got = -1, size = 0;
    if (rc != MPI_SUCCESS || PMPI_Type_size(dt, &size) != MPI_SUCCESS)
        return rc == MPI_SUCCESS ? MPI_ERR_OTHER : rc;
    long long want = (long long)len * size;
    int fits = want <= INT_MAX;
    if (PMPI_Get_count(status, fits ? MPI_BYTE : dt, &got) != MPI_SUCCESS || got != (fits ? want : len))
        rc = MPI_ERR_OTHER;
    return rc;
}

int logp_buffer_recv_exact(void *buf, int len, MPI_Datatype dt, int peer, int tag, MPI_Comm comm)
{
    MPI_Status status;
    return logp_buffer_got(logp_engine_recv(buf, len, dt, peer, tag, comm, &status), &status, dt, len);
}

int logp_buffer_wait_all(int n, MPI_Request *req, int rc)
{
    for (int i = 0; i < n; i++) {
        int w = logp_engine_wait(&req[i], MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = w;
    }
    return rc;
}

int logp_buffer_wait_got(int n, MPI_Request *req, const char *is_recv, int len, MPI_Datatype dt, int rc)
{
    for (int i = 0; i < n; i++) {
        MPI_Status status;
        int w = logp_engine_wait(&req[i], &status);
        if (is_recv == NULL || is_recv[i])
            w = logp_buffer_got(w, &status, dt, len);
        if (rc == MPI_SUCCESS)
            rc = w;
    }
    return rc;
}

void logp_buffer_part(int count, int parts, int part, int nparts, int *first, int *len)
{
    if (parts <= 1 || nparts <= 0) {
        *first = 0;
        *len = count;
        return;
    }
    long long lo = (long long)count * part / parts, hi = (long long)count * (part + nparts) / parts;
    *first = (int)lo;
    *len = (int)(hi - lo);
}

void logp_sendq_init(logp_sendq_t *q, int concurrent, int window)
{
    q->n = 0;
    q->serial = !concurrent;
    q->paced = window > 0;
    q->eager = 0;
    q->window = window > 0 && window < LOGP_SENDQ_WINDOW ? window : LOGP_SENDQ_WINDOW;
    for (int i = 0; i < LOGP_SENDQ_WINDOW; i++)
        q->req[i] = MPI_REQUEST_NULL;
}

static int logp_sendq_complete(logp_sendq_t *q, int slot)
{
    int rc = q->req[slot] == MPI_REQUEST_NULL ? MPI_SUCCESS : logp_engine_wait(&q->req[slot], MPI_STATUS_IGNORE);
    q->req[slot] = MPI_REQUEST_NULL;
    return rc;
}

int logp_sendq_post(logp_sendq_t *q, const void *buf, MPI_Aint extent, int first, int len, size_t bytes,
                    MPI_Datatype dt, int peer, int tag, MPI_Comm comm)
{
    int slot = q->n % q->window, large = bytes > LOGP_SENDQ_SERIAL, rc = MPI_SUCCESS;
    for (int i = 0; i < LOGP_SENDQ_WINDOW; i++) /* a large send is alone beside other peers */
        if (q->serial && q->req[i] != MPI_REQUEST_NULL && q->peer[i] != peer && (large || q->large[i])) {
            int w = logp_sendq_complete(q, i);
            rc = rc == MPI_SUCCESS ? w : rc;
        }
    int w = logp_sendq_complete(q, slot); /* the oldest frees its slot */
    rc = rc == MPI_SUCCESS ? w : rc;
    /* synchronous: a large (or paced) send is complete when it has been
     * received, not when a library that buffers (or a simulator that
     * detaches) took it */
    int (*isend)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *) =
        (large && !q->eager) || q->paced ? PMPI_Issend : PMPI_Isend;
    int s = isend((const char *)buf + (MPI_Aint)first * extent, len, dt, peer, tag, comm, &q->req[slot]);
    if (s != MPI_SUCCESS && PMPI_Isend(buf, 0, MPI_BYTE, peer, tag, comm, &q->req[slot]) != MPI_SUCCESS)
        q->req[slot] = MPI_REQUEST_NULL; /* else an empty message: the peer reports a short one, not waits */
    q->buf[slot] = buf;
    q->peer[slot] = peer;
    q->large[slot] = large;
    q->lo[slot] = first;
    q->hi[slot] = first + len;
    q->n++;
    return rc != MPI_SUCCESS ? rc : s;
}

/* Nonzero if slot i's send is in flight and reads elements [first, first
 * + len) of buf (len < 0: any of buf; buf NULL: any send). */
static int logp_sendq_slot_reads(const logp_sendq_t *q, int i, const void *buf, int first, int len)
{
    return q->req[i] != MPI_REQUEST_NULL &&
           (buf == NULL || (q->buf[i] == buf && (len < 0 || (q->lo[i] < first + len && first < q->hi[i]))));
}

int logp_sendq_wait(logp_sendq_t *q, const void *buf, int first, int len)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < LOGP_SENDQ_WINDOW; i++) {
        if (logp_sendq_slot_reads(q, i, buf, first, len)) {
            int w = logp_sendq_complete(q, i);
            if (rc == MPI_SUCCESS)
                rc = w;
        }
    }
    return rc;
}

int logp_sendq_reads(const logp_sendq_t *q, const void *buf, int first, int len)
{
    for (int i = 0; i < LOGP_SENDQ_WINDOW; i++)
        if (logp_sendq_slot_reads(q, i, buf, first, len))
            return 1;
    return 0;
}

void logp_recvq_init(logp_recvq_t *r)
{
    r->posted = r->taken = 0;
}

int logp_recvq_room(const logp_recvq_t *r)
{
    return r->posted - r->taken < LOGP_RECVQ_AHEAD;
}

int logp_recvq_post(logp_recvq_t *r, void *buf, MPI_Aint extent, int first, int len, MPI_Datatype dt, int peer,
                    int tag, MPI_Comm comm)
{
    int slot = r->posted++ % LOGP_RECVQ_AHEAD;
    r->len[slot] = len;
    int rc = PMPI_Irecv((char *)buf + (MPI_Aint)first * extent, len, dt, peer, tag, comm, &r->req[slot]);
    if (rc != MPI_SUCCESS)
        r->req[slot] = MPI_REQUEST_NULL;
    return rc;
}

int logp_recvq_take(logp_recvq_t *r, MPI_Datatype dt)
{
    int slot = r->taken++ % LOGP_RECVQ_AHEAD;
    if (r->req[slot] == MPI_REQUEST_NULL) /* its post failed and reported it */
        return MPI_ERR_OTHER;
    MPI_Status status;
    int rc = logp_engine_wait(&r->req[slot], &status);
    return logp_buffer_got(rc, &status, dt, r->len[slot]);
}
