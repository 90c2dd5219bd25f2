/* The simulator's event queue (sim.c): a min-heap of (time, rank), the
 * ranks whose next operation can start at `time`.  Static inline: it runs
 * once per operation simulated. */
#ifndef LOGP_MODEL_SIM_HEAP_H
#define LOGP_MODEL_SIM_HEAP_H

/* A rank whose next operation can start at t. */
typedef struct {
    double t;
    int rank;
} logp_sim_event_t;

static inline int logp_sim_before(logp_sim_event_t a, logp_sim_event_t b)
{
    return a.t < b.t || (a.t == b.t && a.rank < b.rank);
}

/* A 4-ary heap: half the levels of a binary one, and a node's children
 * share a cache line (P can be 65,536 and more). */
static inline void logp_sim_push(logp_sim_event_t *h, int *n, logp_sim_event_t e)
{
    int i = (*n)++;
    while (i > 0 && logp_sim_before(e, h[(i - 1) / 4])) {
        h[i] = h[(i - 1) / 4];
        i = (i - 1) / 4;
    }
    h[i] = e;
}

static inline logp_sim_event_t logp_sim_pop(logp_sim_event_t *h, int *n)
{
    logp_sim_event_t top = h[0], last = h[--(*n)];
    int i = 0;
    for (;;) {
        int c = 4 * i + 1, end = c + 4 < *n ? c + 4 : *n;
        if (c >= *n)
            break;
        for (int k = c + 1; k < end; k++)
            if (logp_sim_before(h[k], h[c]))
                c = k;
        if (!logp_sim_before(h[c], last))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n > 0)
        h[i] = last;
    return top;
}

#endif
