/* Scratch buffers and local copies for any datatype (PMPI only). */
#ifndef LOGP_COLL_BUFFER_H
#define LOGP_COLL_BUFFER_H

#include <mpi.h>
#include <stddef.h>

#include "../model/params.h"
#include "../model/sched.h" /* LOGP_SCHED_WINDOW_MAX, LOGP_SCHED_RECV_AHEAD */

/* Tags of our traffic.  A private communicator serves every application
 * communicator of the same group, each with a pair of tags of its own
 * from LOGP_TAG_FIRST on (collectives on one communicator are sequential,
 * so its tags keep them apart; tag + 1 carries a dataflow schedule's
 * second stream, sched.h). */
#define LOGP_TAG_FIRST 1000

typedef struct logp_buffer {
    void *mem;  /* what malloc returned */
    void *base; /* buffer address to pass to MPI (logp_buffer_base) */
} logp_buffer_t;

/* Bytes needed for `count` elements of `dt` as MPI lays them out (true
 * extent, negative lower bounds included). */
size_t logp_buffer_span(int count, MPI_Datatype dt);

/* Allocates room for `count` elements of `dt` laid out as MPI lays them out.
 * MPI_SUCCESS or MPI_ERR_NO_MEM. */
int logp_buffer_alloc(logp_buffer_t *b, int count, MPI_Datatype dt);

/* Address to pass to MPI for `count` elements of `dt` placed at `mem`
 * (logp_buffer_span bytes): mem - true_lb, plus (count - 1) |extent| for
 * a negative extent, whose later elements lie below the first. */
void *logp_buffer_base(void *mem, int count, MPI_Datatype dt);

/* Frees a buffer; safe on a zeroed one. */
void logp_buffer_free(logp_buffer_t *b);

/* Reusable staging memory, one region per process.  Reusing one region
 * keeps its address stable across calls, which MPICH/UCX's registration
 * caches reward (fresh 256 KiB buffers per call cost ~20x on shared
 * memory). */
typedef struct logp_scratch {
    void *mem;
    size_t size;
    int busy; /* handed out and not yet released (atomic: threads share it) */
    int fail; /* nonzero: every request fails, as out of memory (a test hook) */
} logp_scratch_t;

/* Largest staging region kept between calls (per process): larger ones
 * are allocated for the call and freed after it.  64 MiB: a reduce of up
 * to 21 MiB keeps its accumulator and two receive buffers (3 x the
 * message), one of up to 32 MiB the accumulator and one (reduce.c).  A
 * region allocated per call above glibc's largest mmap threshold (32 MiB)
 * is mapped and its pages faulted in anew on every call, which costs more
 * than the reduce itself (docs/results/measurements-in-code.md, "scratch
 * kept"). */
#define LOGP_SCRATCH_KEEP ((size_t)64 << 20)

/* `bytes` of staging memory (0 is taken as 1, so that NULL always means
 * out of memory): the region (grown as needed) when s is not NULL, not in
 * use by another thread and bytes <= LOGP_SCRATCH_KEEP; else a fresh
 * allocation, which for large sizes the C library maps and the kernel
 * faults in anew at every call (a 64 MiB staging asked one byte past the
 * limit cost 15 ms a call: issue 38).  Release with logp_scratch_put.
 * NULL if out of memory (always when s->fail). */
void *logp_scratch_get(logp_scratch_t *s, size_t bytes);

/* Gives back what logp_scratch_get returned. */
void logp_scratch_put(logp_scratch_t *s, void *p);

/* Frees the region (not while it is handed out). */
void logp_scratch_free(logp_scratch_t *s);

/* Nonzero if elements of dt lie back to back from the buffer address as
 * the bytes of their type signature, in its order (predefined types
 * without holes, and contiguous runs of them): such a buffer is its own
 * packed form. */
int logp_buffer_flat(MPI_Datatype dt);

/* Nonzero if dt is a predefined (named) datatype; 0 for a derived one or
 * a handle MPI rejects. */
int logp_buffer_named(MPI_Datatype dt);

/* What the MPI library checks of a datatype it is handed (an uncommitted
 * derived type is an error), by packing none of it on comm (no traffic;
 * MPICH and Open MPI check that, not a send of nothing, and Open MPI's
 * MPI_Pack_size does not).  For paths that move a flat datatype's bytes
 * as MPI_BYTE.  Returns an MPI error code. */
int logp_buffer_check(MPI_Datatype dt, MPI_Comm comm);

/* Copies `count` elements of `st` at src into `rcount` elements of `rt` at
 * dst (same type signature), through `comm` (a private communicator: a
 * message to self with `tag`; memcpy when both layouts are contiguous and
 * alike).
 * Returns an MPI error code. */
int logp_buffer_copy(const void *src, int scount, MPI_Datatype st, void *dst, int rcount, MPI_Datatype rt,
                     MPI_Comm comm, int tag);

/* PMPI_Pack of `count` elements of dt at src into out (outsize bytes,
 * from *pos, which it advances).  MPICH 4.0.2's MPI_Pack and MPI_Unpack
 * reject MPI_BOTTOM, which a datatype of absolute addresses needs: there
 * the bytes go through a message to self on `comm` with `tag`
 * (logp_buffer_copy into MPI_PACKED).  Returns an MPI error code. */
int logp_buffer_pack(const void *src, int count, MPI_Datatype dt, void *out, int outsize, int *pos, MPI_Comm comm,
                     int tag);

/* The converse: `count` elements of dt at dst from in (insize bytes, from
 * *pos, which it advances). */
int logp_buffer_unpack(const void *in, int insize, int *pos, void *dst, int count, MPI_Datatype dt, MPI_Comm comm,
                       int tag);

/* Receives `len` elements of dt from peer into buf, a message of a
 * collective in which sender and receiver must move the same bytes:
 * MPI_ERR_TRUNCATE (the library's) if more came, MPI_ERR_OTHER if fewer,
 * which MPI_Recv accepts but which means ranks passed different counts (an
 * erroneous program; MPICH's collectives report it as such). */
int logp_buffer_recv_exact(void *buf, int len, MPI_Datatype dt, int peer, int tag, MPI_Comm comm);

/* The same check for a receive that completed with `status` and code rc
 * (a nonblocking one): rc, or MPI_ERR_OTHER if fewer than len came. */
int logp_buffer_got(int rc, const MPI_Status *status, MPI_Datatype dt, int len);

/* Completes the n requests of req (every one, even after an error, so no
 * peer is left waiting on them); returns rc if it is an error, else the
 * first error of a wait, else MPI_SUCCESS. */
int logp_buffer_wait_all(int n, MPI_Request *req, int rc);

/* The same, where req[i] with is_recv[i] nonzero (every one if is_recv is
 * NULL) receives `len` elements of dt and a short message is an error, as
 * in logp_buffer_got. */
int logp_buffer_wait_got(int n, MPI_Request *req, const char *is_recv, int len, MPI_Datatype dt, int rc);

/* Elements [*first, *first + *len) of parts [part, part + nparts) of
 * `count` elements cut into `parts` equal parts (part i starts at element
 * floor(i count / parts): a part never splits an element, whatever the
 * datatype); nparts 0 or parts <= 1: all `count`. */
void logp_buffer_part(int count, int parts, int part, int nparts, int *first, int *len);

/* Sends in flight (at most LOGP_SENDQ_WINDOW; the oldest is completed to
 * make room), each with the buffer and element range it reads, so that a
 * later write to that range waits for it first (MPI forbids touching a
 * buffer under a pending send).  A large send (over LOGP_SENDQ_SERIAL
 * bytes, about where m G passes o + L; sent synchronously, so that it is
 * complete only once received) is never in flight beside a send to another peer: LogGP, which prices
 * every schedule, injects one message after the other (gap G per byte),
 * while a network that shares a link between concurrent transfers would
 * deliver every child of a tree late (a binomial root's log2 P sends of
 * 1 MiB each then take log2 P times longer to reach the first child:
 * docs/results/measurements-in-code.md, "send window").  Small sends
 * overlap freely, and so do
 * sends to one peer (the pieces of one exchange: waiting there could close
 * a cycle of ranks each waiting for the next to post its receive). */
#define LOGP_SENDQ_WINDOW LOGP_SCHED_WINDOW_MAX
#define LOGP_SENDQ_SERIAL LOGP_PARAMS_SERIAL_BYTES /* the model prices the rule (params.h) */
typedef struct logp_sendq {
    MPI_Request req[LOGP_SENDQ_WINDOW];
    const void *buf[LOGP_SENDQ_WINDOW];
    int lo[LOGP_SENDQ_WINDOW], hi[LOGP_SENDQ_WINDOW], peer[LOGP_SENDQ_WINDOW];
    int large[LOGP_SENDQ_WINDOW]; /* over LOGP_SENDQ_SERIAL bytes */
    int n; /* sends posted; slot n % window is the next */
    int serial; /* large sends alone (1, the default), or all concurrent (0) */
    int window; /* sends in flight at most (<= LOGP_SENDQ_WINDOW) */
    int paced;  /* every send synchronous (a schedule's window, sched.h) */
    int eager;  /* large sends not synchronous (LOGP_FAMILY_EXCHANGE; set after init) */
} logp_sendq_t;

/* An empty queue; `concurrent` nonzero lets large sends be in flight
 * beside sends to other peers (schedules whose order relies on it:
 * LOGP_FAMILY_CONCURRENT, sched.h; they stay synchronous).  `window` is
 * the schedule's (logp_sched_window): 0 keeps up to LOGP_SENDQ_WINDOW
 * sends in flight; w > 0 keeps at most w and sends every message
 * synchronously, so a rank's next send waits until its w-th last one has
 * been received (a network that shares the interface between a rank's
 * transfers otherwise slows every one of them: SMPI, two-tree bcast). */
void logp_sendq_init(logp_sendq_t *q, int concurrent, int window);

/* Posts a send of elements [first, first + len) of the buffer `buf` (whose
 * element 0 is at buf; extent `extent`; `bytes` of data).  Returns an MPI
 * error code (of the send, or of the wait that made room). */
int logp_sendq_post(logp_sendq_t *q, const void *buf, MPI_Aint extent, int first, int len, size_t bytes,
                    MPI_Datatype dt, int peer, int tag, MPI_Comm comm);

/* Completes the sends that read elements [first, first + len) of buf
 * (len < 0: every send of buf; buf NULL: every send).  Returns an MPI
 * error code. */
int logp_sendq_wait(logp_sendq_t *q, const void *buf, int first, int len);

/* Nonzero if a send in flight reads elements [first, first + len) of buf. */
int logp_sendq_reads(const logp_sendq_t *q, const void *buf, int first, int len);

/* Receives posted ahead of their turn, in the order of the operations
 * that take them (at most LOGP_RECVQ_AHEAD), so that a segment lands when
 * it arrives, not when the rank gets to it: a synchronous or rendezvous
 * send of the next segment starts while the rank still forwards this one
 * (measured in bcast.c).  Matching is
 * unchanged: receives from one peer are posted in the order they were
 * taken before. */
#define LOGP_RECVQ_AHEAD LOGP_SCHED_RECV_AHEAD /* the simulator follows it (sched.h) */
typedef struct logp_recvq {
    MPI_Request req[LOGP_RECVQ_AHEAD];
    int len[LOGP_RECVQ_AHEAD]; /* elements expected */
    int posted, taken;         /* receives posted and taken; slot = count % AHEAD */
} logp_recvq_t;

/* An empty queue. */
void logp_recvq_init(logp_recvq_t *r);

/* Nonzero if there is room for one more receive ahead. */
int logp_recvq_room(const logp_recvq_t *r);

/* Posts the next receive: elements [first, first + len) of buf (extent
 * `extent`) from peer.  Needs room.  Returns an MPI error code (its take
 * then returns MPI_ERR_OTHER). */
int logp_recvq_post(logp_recvq_t *r, void *buf, MPI_Aint extent, int first, int len, MPI_Datatype dt, int peer,
                    int tag, MPI_Comm comm);

/* Completes the oldest receive (posted with `dt`): as
 * logp_buffer_recv_exact, MPI_ERR_OTHER if fewer elements came. */
int logp_recvq_take(logp_recvq_t *r, MPI_Datatype dt);

#endif
