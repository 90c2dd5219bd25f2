/* Schedules (see sched.h): the family table generated from the registry,
 * and the generic views that turn a tree into a rank's operations. */
#include "sched.h"

#include <string.h>

/* native and auto: nothing to build or run (declared from algo.def). */
const logp_family_t logp_family_none = {0};

static const logp_family_t *const logp_families[LOGP_ALGO_COUNT] = {
#define LOGP_ALGO_X(id, name, colls, family, band_loggp, band_shared, desc) &family,
#include "algo.def"
#undef LOGP_ALGO_X
};

const logp_family_t *logp_sched_family(logp_algo_t algo)
{
    return (unsigned)algo < LOGP_ALGO_COUNT ? logp_families[algo] : &logp_family_none;
}

static int logp_sched_is_tree(const logp_family_t *f)
{
    return f->node != NULL;
}

logp_status_t logp_sched_build(logp_sched_t *s, logp_coll_t coll, logp_algo_t algo, size_t bytes,
                               const logp_topo_t *topo, const logp_sched_opts_t *opts)
{
    memset(s, 0, sizeof(*s));
    const logp_family_t *f = logp_sched_family(algo);
    if (topo == NULL || topo->P < 1 || !logp_algo_supports(algo, coll) || f == &logp_family_none ||
        logp_params_check(&topo->intra) != 0 || logp_params_check(&topo->inter) != 0 ||
        (logp_sched_is_tree(f) && logp_coll_exchanges(coll)))
        return LOGP_ERR_ARG;
    static const logp_sched_opts_t none = {0, 0, 0, 0, 0, 0};
    s->coll = coll;
    s->algo = algo;
    s->fam = f;
    s->P = topo->P;
    s->bytes = bytes;
    s->topo = *topo;
    s->p = *logp_topo_rep(topo);
    s->parts = 1;
    logp_status_t rc = f->build ? f->build(s, opts ? opts : &none) : LOGP_OK;
    if (rc != LOGP_OK)
        logp_sched_free(s);
    return rc;
}

void logp_sched_free(logp_sched_t *s)
{
    if (s == NULL)
        return;
    if (s->fam && s->fam->release)
        s->fam->release(s);
    memset(s, 0, sizeof(*s));
}

int logp_sched_alike(const logp_sched_t *s)
{
    /* one rank per node shares no interface: every pair is inter-node */
    return s->topo.speed == NULL && (s->topo.nnodes <= 1 || s->topo.nnodes == s->P);
}

int logp_sched_uniform(const logp_sched_t *s)
{
    return logp_sched_alike(s) && !s->topo.shared; /* a shared network has no closed forms (net.h) */
}

/* Whether s can run this operator (a non-commutative reduce needs rank order). */
static int logp_sched_runs(const logp_sched_t *s, int commutative)
{
    return commutative || !logp_coll_combines(s->coll) || (s->fam->flags & LOGP_FAMILY_RANK_ORDER);
}

/* A tree family's allreduce (its reduce to rank 0, then its bcast from
 * rank 0 down the same tree): where the family's tree is the same for
 * both (binomial, flat), the two closed forms added.  Exact: when the
 * root has combined the last result, every other rank's last send has
 * arrived, so no rank's CPU, gap or large-send rule of the reduce delays
 * the bcast.  The optimal trees (logp-tree) differ per collective: the
 * simulator prices them.  < 0: no closed form. */
static double logp_sched_tree_allreduce_time(const logp_sched_t *s, int commutative)
{
    if (s->fam != &logp_family_binomial && s->fam != &logp_family_flat)
        return -1.0;
    logp_sched_t half = *s;
    half.coll = LOGP_COLL_REDUCE;
    double up = s->fam->time(&half, 0, commutative);
    half.coll = LOGP_COLL_BCAST;
    return up + s->fam->time(&half, 0, 1);
}

double logp_sched_time(const logp_sched_t *s, int root, int commutative)
{
    if (s->fam == NULL || s->fam->time == NULL || !logp_sched_uniform(s) || !logp_sched_runs(s, commutative))
        return -1.0;
    if (s->coll == LOGP_COLL_ALLREDUCE && logp_sched_is_tree(s->fam))
        return logp_sched_tree_allreduce_time(s, commutative);
    return s->fam->time(s, root, commutative);
}

long logp_sched_ops(const logp_sched_t *s)
{
    return s->fam->count ? s->fam->count(s) : 3L * s->P;
}

/* floor(m i / parts) without overflow (i <= parts). */
static size_t logp_sched_part_start(size_t m, int parts, int i)
{
    size_t q = m / (size_t)parts, r = m % (size_t)parts;
    return q * (size_t)i + r * (size_t)i / (size_t)parts;
}

size_t logp_sched_part_bytes(size_t m, int parts, int part, int n)
{
    if (parts <= 1)
        return m;
    return logp_sched_part_start(m, parts, part + n) - logp_sched_part_start(m, parts, part);
}

double logp_sched_estimate(const logp_sched_t *s, int root, int commutative)
{
    if (!logp_sched_runs(s, commutative))
        return -1.0;
    if (s->coll == LOGP_COLL_ALLREDUCE && logp_sched_is_tree(s->fam))
        return logp_sched_uniform(s) ? logp_sched_tree_allreduce_time(s, commutative) : -1.0;
    if (s->fam->estimate)
        return s->fam->estimate(s, root, commutative);
    return s->fam->time ? s->fam->time(s, root, commutative) : -1.0;
}

double logp_sched_handover_time(const logp_params_t *p, size_t bytes, double done0, double done_root,
                                logp_recv_state_t at_root)
{
    double sent = done0 + p->o; /* rank 0's CPU after the hand-over send */
    at_root.cpu = done_root + p->o;
    logp_params_take(p, bytes, 0, done0 + p->o + logp_params_inj(p, bytes) + p->L, &at_root);
    return at_root.cpu > sent ? at_root.cpu : sent;
}

logp_status_t logp_view_init(logp_view_t *v, const logp_sched_t *s, int root, int rank, int commutative)
{
    memset(v, 0, sizeof(*v));
    if (s->fam == NULL || rank < 0 || rank >= s->P || root < 0 || root >= s->P)
        return LOGP_ERR_ARG;
    if (s->coll == LOGP_COLL_ALLREDUCE)
        root = 0; /* no root: every tree of an allreduce is rooted at rank 0 */
    v->s = s;
    v->rank = rank;
    v->root = root;
    v->commutative = commutative || !logp_coll_combines(s->coll);
    if (!logp_sched_is_tree(s->fam)) {
        if (!v->commutative && !(s->fam->flags & LOGP_FAMILY_RANK_ORDER))
            return LOGP_ERR_ARG;
        v->tree_root = root;
        v->nops = s->fam->nops(v);
        return LOGP_OK;
    }
    v->tree_root = root;
    if (!v->commutative) {
        if (!(s->fam->flags & LOGP_FAMILY_RANK_ORDER))
            return LOGP_ERR_ARG;
        v->tree_root = 0; /* combine in rank order, then hand the result over */
        if (root != 0)
            v->handover = rank == 0 ? 1 : rank == root ? 2 : 0;
    }
    s->fam->node(s, v->tree_root, rank, &v->node);
    int nk = v->node.nkids, up = v->node.parent >= 0;
    if (s->coll == LOGP_COLL_BCAST) {
        v->nops = up + nk;
        return LOGP_OK;
    }
    /* A rank starts from its own value and combines each child's result as
     * it arrives.  To keep rank order for a non-commutative operator when the
     * children come in ascending rank order (logp-tree, flat), it instead
     * takes the first result as is, prepends the others, and prepends its
     * own value last (one combine later on the critical path). */
    v->prepend = !v->commutative && nk >= 2 && !(s->fam->flags & LOGP_FAMILY_DESCENDING);
    v->nops = 1 + nk + up + (v->handover != 0);
    if (s->coll == LOGP_COLL_ALLREDUCE) /* the result comes back down the tree */
        v->nops += up + nk;
    return LOGP_OK;
}

int logp_view_messages(const logp_view_t *v)
{
    int n = 0;
    for (int i = 0; i < v->nops; i++)
        n += logp_view_op(v, i).kind <= LOGP_OP_RECV_REDUCE;
    return n;
}

int logp_view_dep(const logp_view_t *v, int i)
{
    const logp_family_t *f = v->s->fam;
    return (f->flags & LOGP_FAMILY_DATAFLOW) && f->dep ? f->dep(v, i) : -1;
}

logp_op_t logp_view_op(const logp_view_t *v, int i)
{
    const logp_sched_t *s = v->s;
    if (!logp_sched_is_tree(s->fam))
        return s->fam->op(v, i);
    size_t m = s->bytes;
    int nk = v->node.nkids, up = v->node.parent >= 0;
    if (s->coll == LOGP_COLL_BCAST) {
        if (up) {
            if (i == 0)
                return logp_op_whole(LOGP_OP_RECV, v->node.parent, 0, m);
            i--;
        }
        return logp_op_whole(LOGP_OP_SEND, s->fam->kid(s, v->tree_root, &v->node, i), 0, m);
    }
    if (s->coll == LOGP_COLL_ALLREDUCE && i >= 1 + nk + up) {
        /* allreduce (root 0, no hand-over): the result from the parent into
         * the accumulator, then to the children in send order */
        i -= 1 + nk + up;
        if (up) {
            if (i == 0)
                return logp_op_whole(LOGP_OP_RECV, v->node.parent, 0, m);
            i--;
        }
        return logp_op_whole(LOGP_OP_SEND, s->fam->kid(s, v->tree_root, &v->node, i), 0, m);
    }
    /* reduce: children in reverse send order, combined, then up the tree */
    if (i < nk + 1) {
        if (v->prepend) {
            if (i == nk)
                return logp_op_whole(LOGP_OP_REDUCE_OWN, v->rank, LOGP_SIDE_PREPEND, m);
            return logp_op_whole(i == 0 ? LOGP_OP_RECV : LOGP_OP_RECV_REDUCE,
                               s->fam->kid(s, v->tree_root, &v->node, nk - 1 - i), LOGP_SIDE_PREPEND, m);
        }
        if (i == 0)
            return logp_op_whole(LOGP_OP_INIT_OWN, v->rank, 0, m);
        return logp_op_whole(LOGP_OP_RECV_REDUCE, s->fam->kid(s, v->tree_root, &v->node, nk - i), LOGP_SIDE_APPEND, m);
    }
    i -= nk + 1;
    if (up) {
        if (i == 0)
            return logp_op_whole(LOGP_OP_SEND, v->node.parent, 0, m);
        i--;
    }
    /* hand-over of a rank-order result to a root other than rank 0 */
    if (v->handover == 1)
        return logp_op_whole(LOGP_OP_SEND, v->root, LOGP_RECV_RESULT, m);
    return logp_op_whole(LOGP_OP_RECV, v->tree_root, LOGP_RECV_RESULT, m);
}
