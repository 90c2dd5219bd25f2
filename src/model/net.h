/* A network whose hosts' interfaces share their bandwidth among the
 * transfers in flight, as SimGrid's (and a real NIC's) links do, where
 * LogGP injects one message after another.
 *
 * Every host has an outgoing and an incoming interface of equal capacity
 * (a full-duplex link).  A transfer (a "flow") first spends the latency L,
 * then moves its `work` (its injection time at full rate, (m - 1) G)
 * through the sender's outgoing and the receiver's incoming interface; the
 * flows in flight get max-min fair rates (progressive filling: the
 * interface with the least capacity per flow fixes its flows' rate, and so
 * on), recomputed whenever a flow starts or ends, only among the flows
 * linked to it through shared interfaces.  A flow alone on both its
 * interfaces ends at t + work + L, exactly LogGP's arrival.  Measured in
 * SimGrid SMPI 3.32 (a cluster of private split-duplex links, 1 MiB
 * flows): two flows out of one host, or into one, each end at 2 m G + L;
 * opposite directions of one link do not slow each other; flows 0->1,
 * 0->2, 3->2, 4->2 end at 1.5, 3, 3, 3 m G (+ L): max-min fair. */
#ifndef LOGP_MODEL_NET_H
#define LOGP_MODEL_NET_H

#include "status.h"

typedef struct logp_net_flow logp_net_flow_t;
typedef struct logp_net_event logp_net_event_t;

typedef struct logp_net {
    int nhosts;
    logp_net_flow_t *flow;   /* slots of the flows in flight */
    long cap, free;          /* slots, and the first free one (-1: none) */
    long *head;              /* 2 nhosts interfaces: out of host h (h), into h (nhosts + h): their first flow */
    long *mark;              /* interface visited in the current recomputation (its epoch) */
    double *left;            /* recomputation: capacity left, flows not yet fixed */
    long *unfixed;
    long epoch;
    long *stack;             /* recomputation: interfaces to visit, then the component's */
    long *iheap, *ipos;      /* recomputation: interfaces by capacity left per unfixed flow */
    long *members;           /* recomputation: the component's flows (cap entries) */
    logp_net_event_t *heap;  /* pending events (latency ends, completions) */
    long nheap, capheap;
    long effort, effort_max; /* flows and interfaces recomputed so far; the limit (0: none) */
    long *dirty;             /* interfaces whose flows changed at t_dirty, not yet recomputed */
    long ndirty;
    double t_dirty;
    unsigned char *is_dirty; /* per interface: in dirty[] */
    long failed;             /* a deferred recomputation failed: -2 (memory) or -3 (effort) */
} logp_net_t;

/* A network of `nhosts` hosts, no flow in flight.  LOGP_OK or
 * LOGP_ERR_NOMEM. */
logp_status_t logp_net_init(logp_net_t *n, int nhosts);

/* Releases a network; safe on a zeroed one. */
void logp_net_free(logp_net_t *n);

/* Flow f (the caller's id) from host a to host b (a != b) leaves the sender at
 * time t: latency L, then `work` seconds at full rate.  LOGP_OK or
 * LOGP_ERR_NOMEM. */
logp_status_t logp_net_start(logp_net_t *n, long f, int a, int b, double t, double L, double work);

/* Time of the next event (a latency ending or a flow completing); a
 * negative value if there is none.  The shares that the events of one
 * instant changed are recomputed once, here, when the next event is
 * later than that instant (many flows of a collective start and end
 * together: one recomputation instead of one per flow; the rates are
 * the same, max-min fairness having one solution). */
double logp_net_next(logp_net_t *n);

/* Handles the next event (the changes of an earlier instant recomputed
 * first; -1 and *t < 0 when nothing is pending).  Returns the id of
 * the flow it completed (its completion time in *t), or -1 if it only
 * moved a flow from its latency to its transfer or was stale; -2 when out
 * of memory, -3 when the recomputations exceeded effort_max (a star of n
 * flows into one interface costs about n^2: every completion changes
 * every share). */
long logp_net_step(logp_net_t *n, double *t);

#endif
