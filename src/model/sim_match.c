/* Message matching for the simulator (sim_match.h): the k-th message
 * from s to r is the k-th receive at r from s (per stream), found in one
 * pass with a hash table of pairs, O(n). */
#include "sim_match.h"

#include <stdlib.h>

/* Pairs (src, dst) -> the oldest unmatched send or receive between them:
 * open addressing, used only while matching. */
typedef struct {
    long key;   /* src * P + dst, -1 if empty */
    long head;  /* oldest unmatched operation of the pair (a chain through `link`), -1 */
    long tail;
    int sends;  /* the chain holds sends (1) or receives (0) */
} logp_sim_pair_t;

typedef struct {
    logp_sim_pair_t *slot;
    long mask, used;
} logp_sim_pairs_t;

static logp_sim_pair_t *logp_sim_pair(logp_sim_pairs_t *h, long key)
{
    unsigned long x = (unsigned long)key * 0x9E3779B97F4A7C15ul;
    for (long i = (long)(x >> 17) & h->mask;; i = (i + 1) & h->mask) {
        if (h->slot[i].key == key)
            return &h->slot[i];
        if (h->slot[i].key == -1) {
            h->slot[i] = (logp_sim_pair_t){key, -1, -1, 0};
            h->used++;
            return &h->slot[i];
        }
    }
}

logp_status_t logp_sim_match(const logp_sched_t *s, long n, const logp_op_t *op, const int *owner, long *match,
                             long *link)
{
    int P = s->P;
    logp_sim_pairs_t h = {0};
    long size = 64;
    while (size < 2 * n)
        size *= 2;
    h.mask = size - 1;
    h.slot = malloc(sizeof(*h.slot) * (size_t)size);
    if (h.slot == NULL)
        return LOGP_ERR_NOMEM;
    for (long i = 0; i < size; i++)
        h.slot[i].key = -1;
    logp_status_t rc = LOGP_OK;
    for (long i = 0; i < n; i++) {
        int k = op[i].kind, send = k == LOGP_OP_SEND;
        match[i] = -1;
        if (!send && k != LOGP_OP_RECV && k != LOGP_OP_RECV_REDUCE)
            continue;
        int src = send ? owner[i] : op[i].peer, dst = send ? op[i].peer : owner[i];
        logp_sim_pair_t *p = logp_sim_pair(&h, ((long)src * P + dst) * 2 + logp_op_stream(s, &op[i]));
        if (p->head >= 0 && p->sends != send) { /* the oldest waiting partner */
            long j = p->head;
            p->head = link[j];
            if (p->head < 0)
                p->tail = -1;
            match[i] = j;
            match[j] = i;
            continue;
        }
        link[i] = -1; /* wait for a partner */
        p->sends = send;
        if (p->tail >= 0)
            link[p->tail] = i;
        else
            p->head = i;
        p->tail = i;
    }
    for (long i = 0; i < size && rc == LOGP_OK; i++)
        if (h.slot[i].key != -1 && h.slot[i].head >= 0)
            rc = LOGP_ERR_DEADLOCK;
    free(h.slot);
    return rc;
}
