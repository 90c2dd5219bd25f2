/* Bruck-kind all-to-all executor with packed blocks: seed 004's butterfly
 * and Bruck's algorithm in any radix. */
#ifndef LOGP_COLL_ALLTOALL_BUTTERFLY_H
#define LOGP_COLL_ALLTOALL_BUTTERFLY_H

#include <mpi.h>

#include "../model/sched.h"
#include "buffer.h"

/* One message of a digit of a Bruck schedule. */
typedef struct logp_bruck_msg {
    int peer;
    int d;    /* its digit value: the slots it carries (logp_bruck_carries) */
    int send; /* 1: to rank + d w; 0: from rank - d w */
} logp_bruck_msg_t;

/* The operations of digit `digit` (weight w) of this rank's Bruck
 * schedule v, from operation i on, as messages in the order to post them
 * (the receives, then the sends) into msg (room for
 * 2 LOGP_BRUCK_RADIX_MAX).  Returns how many (0: operation i is not of
 * this digit, not a Bruck schedule's). */
int logp_bruck_digit(const logp_view_t *v, int i, int digit, long w, logp_bruck_msg_t *msg);

/* MPI_Alltoall semantics on the private communicator `comm` for any P
 * (sendbuf may be MPI_IN_PLACE), running this rank's operations `v` of a
 * LOGP_FAMILY_A2A_BRUCK schedule (radix v->s->k).  Staging memory: P
 * blocks of packed data plus two areas for one digit's sends and receives
 * (ceil(P/2) blocks each in radix 2, fewer than P in any radix), two to
 * three times the receive buffer; never O(P^2) blocks.  Returns an MPI
 * error code. */
int logp_coll_alltoall_butterfly(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm, int tag, const logp_view_t *v,
                                 logp_scratch_t *scratch);

#endif
