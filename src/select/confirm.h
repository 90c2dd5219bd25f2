/* Confirmation of auto's decisions by measurement (pure C, no MPI): which
 * candidates a trial runs, which call runs which, and the verdict from the
 * measured times.  The shim runs the trial on the application's own calls
 * and agrees on the times across ranks; everything here is deterministic,
 * so every rank given the same numbers reaches the same verdict. */
#ifndef LOGP_SELECT_CONFIRM_H
#define LOGP_SELECT_CONFIRM_H

#include <stdint.h>

#include "../model/algo.h"
#include "select.h"

#define LOGP_CONFIRM_MAX 5      /* candidates: the model's pick, native, our two runners-up, and
                                   after a refit of L or G the decision from before it */
#define LOGP_CONFIRM_ROUNDS 3   /* timed calls per candidate, of which the fastest counts (see logp_confirm_verdict) */
#define LOGP_CONFIRM_BLOCK_WARM 8 /* untimed calls of a candidate right before its timed ones: a
                                     schedule's first calls in a process are its warm-up, not its sample */
#define LOGP_CONFIRM_BLOCK (LOGP_CONFIRM_BLOCK_WARM + LOGP_CONFIRM_ROUNDS) /* calls of a candidate's block */
#define LOGP_CONFIRM_BLOCKS_MAX (LOGP_CONFIRM_MAX + 1) /* native's block comes again at the end */
#define LOGP_CONFIRM_CALLS (LOGP_CONFIRM_BLOCKS_MAX * LOGP_CONFIRM_ROUNDS)
#define LOGP_CONFIRM_WARMUP 16 /* a class's first calls run the library's collective (the safe
                                  start), untimed, then the trial (the default of
                                  PMPI_LOGP_CONFIRM_WARMUP) */
#define LOGP_CONFIRM_BUDGET 10.0 /* a trial's exploration costs at most about this many calls of
                                   native (its base): checked at each block's end */
#define LOGP_CONFIRM_EARN 10    /* and one more per this many calls the class made after a verdict
                                   that the budget cut short: candidates not tried wait until the
                                   class has paid for them */
#define LOGP_CONFIRM_SPAN 8.0   /* native is tried if predicted within 8x of the best */
#define LOGP_CONFIRM_NEAR LOGP_SELECT_NEAR /* our runners-up are tried if predicted within 2x of the best */
#define LOGP_CONFIRM_DISTINCT 0.005 /* a runner-up must be priced > 0.5% away from our candidates */
#define LOGP_CONFIRM_MARGIN 0.05 /* a challenger overturns the model only if >= 5% faster */
#define LOGP_CONFIRM_DRIFT 3.0  /* a decision re-opens if its calls got 3x slower or faster */
#define LOGP_CONFIRM_REOPENS 2  /* at most this many re-openings per decision and run */

/* The trial's own barriers and agreements (s): without the trial a
 * class pays none of them. */
typedef struct logp_trial_own {
    double block[LOGP_CONFIRM_BLOCKS_MAX]; /* per block: the barrier before each timed call and the block's end */
    double check;                          /* the first call's check (and a resumed trial's) */
} logp_trial_own_t;

typedef struct logp_trial_plan {
    int n;                               /* candidates; < 2: no trial */
    logp_algo_t algo[LOGP_CONFIRM_MAX];  /* [0]: the model's pick */
    double predicted[LOGP_CONFIRM_MAX];  /* s, as priced (with corrections) */
    double band[LOGP_CONFIRM_MAX];       /* its price's error band (fraction; < 0: not known) */
} logp_trial_plan_t;

/* Nonzero if prices t and t_ref are twins: within LOGP_CONFIRM_DISTINCT
 * (relative to t_ref) of each other, mostly one schedule under two names
 * (every tree at P = 2; hetero-tree on a uniform layout is logp-tree). */
int logp_confirm_twins(double t, double t_ref);

/* Nonzero if a candidate priced t_other may really be as fast as the pick
 * priced t_pick, given how far each price may be off (error bands,
 * fractions as logp_algo_error_band gives them; < 0: not known, taken as
 * 0): the error being predicted / real - 1, the other's real time can be
 * as low as t_other / (1 + band_other) and the pick's as high as t_pick /
 * (1 - band_pick) (a band is capped at 0.9). */
int logp_confirm_within_error(double t_pick, double band_pick, double t_other, double band_other);

/* The candidates of a trial from the prices t[0 .. LOGP_ALGO_COUNT-1]
 * (< 0: not a candidate; with the learned corrections), the model's own
 * prices raw[] (without them; the same array where there are none),
 * the error bands band[] (logp_algo_error_band for the network; NULL:
 * none) and the model's pick `best`
 * (t[best] >= 0): best
 * first; native if t[native] >= 0 and within LOGP_CONFIRM_SPAN of best;
 * the cheapest other algorithm within LOGP_CONFIRM_NEAR or within the
 * model's error of best (logp_confirm_within_error: where the model is
 * known to be far off, as the LogGP network's prices of pipelined and
 * multi-port schedules on a network whose links share bandwidth, a
 * candidate priced beyond NEAR may still win) (within
 * LOGP_CONFIRM_SPAN when best is native: the model knows least about the
 * library it does not run, and corrections extrapolated from other
 * classes can make native look cheap), then the next cheapest in the same
 * span.  A runner-up must be priced by the model (raw) more than
 * LOGP_CONFIRM_DISTINCT (relative) away from each of our candidates before
 * it: equal prices are mostly one schedule under two names (every tree at
 * P = 2; hetero-tree on a uniform layout is logp-tree), and trying it
 * twice tells nothing; the raw prices, because corrections learned from
 * noisy trials set such twins apart (docs/results/measurements-in-code.md,
 * "twins")
 * (native is exempt: its code is the library's, whatever its model says).  The
 * second runner-up is there because the model's order among our near
 * candidates is what it knows least (a fast candidate priced fourth, a
 * hair behind the runner-up: docs/results/measurements-in-code.md, "second
 * runner-up").  Where the model's
 * margin is overwhelming nobody else qualifies and plan->n is 1.
 * Returns plan->n. */
int logp_confirm_plan(const double *t, const double *raw, const double *band, logp_algo_t best,
                      logp_trial_plan_t *plan);

/* After a trial's every block: the candidate the model ranked below
 * the plan, to be tried once the class has paid for it (issue 40: the
 * model is least reliable on a real machine, and a class called often
 * enough can afford a look at what it priced out): the cheapest
 * algorithm by t[] (with the corrections; < 0: not a candidate) that is
 * not in the plan, not native (its blocks open and close every trial)
 * and not a twin of a candidate of ours (raw, as logp_confirm_plan),
 * appended to plan with its band, its price put on the footing of the
 * plan's own (scaled by what block 0's candidate was priced in the plan
 * over what t[] prices it now): the budget's estimate of its block
 * scales prices by block 0's measured time over its plan price, which a
 * price corrected by this trial already holds (scaling it twice, MPICH,
 * n = 2, all-to-all 16 KiB: butterfly expected 8.6x native's time, ~760
 * calls of waiting, where the corrected price alone said 2.3x).  Returns
 * its index, -1 if there is none or the plan is full. */
int logp_confirm_plan_extend(logp_trial_plan_t *plan, const double *t, const double *raw, const double *band);

/* The candidates of a trial that resumes an earlier run's (the learned
 * file's `explore`, config.h): the class's rule `rule` first (t[rule] >=
 * 0), then the algorithms of `untried` (bit per algorithm) that are
 * candidates here (t[a] >= 0), cheapest first, up to LOGP_CONFIRM_MAX in
 * all: what that run's budget left untried, judged against what it
 * settled on, and nothing it measured again.  band as for
 * logp_confirm_plan.  Returns plan->n (1: none of them is a candidate). */
int logp_confirm_plan_untried(const double *t, const double *band, logp_algo_t rule, uint32_t untried,
                              logp_trial_plan_t *plan);

/* Which candidate (index into plan) timed trial call `call` (0-based)
 * runs: candidates take their calls in blocks, each after
 * LOGP_CONFIRM_BLOCK_WARM untimed calls of its own (logp_confirm_step_of),
 * since interleaved a schedule is judged on calls that do not show its
 * steady cost (MPICH, n = 2: docs/results/measurements-in-code.md,
 * "interleaved trials").  The library's collective goes first, right
 * after the warm-up ran it (it costs nothing extra), then the others in
 * the plan's order. */
int logp_confirm_turn_of(const logp_trial_plan_t *plan, int call);

/* Blocks a trial takes: one per candidate, and where native is a
 * candidate, a second native block after the others (see
 * logp_confirm_block_of). */
int logp_confirm_blocks(const logp_trial_plan_t *plan);

/* Timed calls a trial takes: logp_confirm_blocks * LOGP_CONFIRM_ROUNDS. */
int logp_confirm_calls(const logp_trial_plan_t *plan);

/* Trial step `step` (0-based, every call of the trial's blocks): its
 * candidate (index into plan) in *cand; returns nonzero if the step is
 * timed (the last LOGP_CONFIRM_ROUNDS calls of the candidate's block). */
int logp_confirm_step_of(const logp_trial_plan_t *plan, int step, int *cand);

/* Steps a trial takes: logp_confirm_blocks * LOGP_CONFIRM_BLOCK. */
int logp_confirm_steps(const logp_trial_plan_t *plan);

/* Index of the library's collective (native) in the plan, -1 if it is not
 * a candidate (unsafe there, or priced far above the pick). */
int logp_confirm_native_index(const logp_trial_plan_t *plan);

/* Nonzero if the class's safe start (its first calls, before the trial's
 * blocks) runs the model's pick rather than the library's collective:
 * native is a candidate, and priced at least LOGP_CONFIRM_SAFE_MARGIN
 * times the pick's price at the top of its error band, so that only a
 * model off by that much beyond its measured error would make the pick the
 * slower one; both as the plan prices them (with the learned corrections)
 * and, if raw (indexed by algorithm) is not NULL, as the model alone does
 * (a correction extrapolated from other classes does not start a class on
 * the pick by itself, nor a model without evidence overrule one).  Where
 * the model knows the library to be slow (MPICH's large reduce, which
 * faults its buffers in at every call: select/native.c) the safe start
 * otherwise spent a class's first calls at 2 - 4.5x the pick's
 * time (docs/results/fresh, "the safe start's exception"). */
#define LOGP_CONFIRM_SAFE_MARGIN 2.0
int logp_confirm_pick_first(const logp_trial_plan_t *plan, const double *raw);

/* Block b's candidate (index into plan): native's block first, then the
 * plan's order, then native's again.  Timed calls b * LOGP_CONFIRM_ROUNDS
 * .. +ROUNDS-1 are its.  Native's second block judges the library warm:
 * right after the safe start its own collective can still be cold (MPICH
 * 4.0.2, n = 2: reduce 1 KiB 2.0-2.4 us in the first block, 0.52 later;
 * allreduce 16 KiB 13-14.5 us against 7.6), while every candidate of
 * ours is judged after its own warm-up calls.  It costs nothing beyond
 * native's calls, so the budget never stops it. */
int logp_confirm_block_of(const logp_trial_plan_t *plan, int b);

/* Nonzero if the trial may go on to block `block` (0-based), from the
 * slowest rank's times of the blocks before it: cost[b] the time of
 * block b's calls (untimed and timed), own (NULL: none) the time the
 * trial's own barriers and agreements took around them and its first
 * call's check, `waited` the
 * class's calls after verdicts the budget cut short.  The exploration so
 * far is what the blocks of candidates other than native cost beyond as
 * many calls of the base, native's block's cost per call (blocks' untimed
 * calls carry the application's skew between ranks, native's alike),
 * plus the trial's own (without the trial a class pays none of it:
 * at 8 B on MPICH, n = 2, a block's barriers alone cost about 20 native
 * calls, docs/results/measurements-in-code.md, "the trial's own cost");
 * the trial goes on while that, plus what the next block is expected to
 * cost (its price, scaled by the first block's measured / priced, and
 * the last block's own barriers), is below
 * LOGP_CONFIRM_BUDGET + waited / LOGP_CONFIRM_EARN calls of the base: it
 * overruns by at most one block's cold calls, and candidates come in the
 * order the model ranks them (the pick first); native's second block is
 * always allowed (it is the base).  Successive elimination of a
 * candidate inside its block would save little: a block's untimed calls
 * are most of its cost (a cold schedule), its timed ones are the sample,
 * and a cold schedule's slowness says nothing of its steady time. */
int logp_confirm_affordable(const logp_trial_plan_t *plan, int block, const double *cost,
                            const logp_trial_own_t *own, unsigned long waited);

/* After the budget stopped a trial before block `block`: how many more
 * calls of the class (beyond `waited`) until it allows that block
 * (logp_confirm_affordable), >= 1. */
unsigned long logp_confirm_resume_after(const logp_trial_plan_t *plan, int block, const double *cost,
                                        const logp_trial_own_t *own, unsigned long waited);

/* Nonzero if candidate c (index into plan) has a block at or after
 * `pending` (> 0: where the budget stopped the trial), i.e. it is still
 * to be tried when the trial resumes. */
int logp_confirm_waits(const logp_trial_plan_t *plan, int pending, int c);

/* The message of a trial's block-end barrier (the shim's agree.c): its
 * key and negated key (the ranks' trials alike exactly when both
 * survive the element-wise maximum), the first `calls` timed calls'
 * times (ns), the first `blocks` blocks' costs (10 ns) and own barrier
 * times (10 ns, negated: the maximum yields the least rank's, since a
 * barrier's cost is its last arrival's wait and the others wait out skew
 * the next collective would absorb anyway), and the first call's check
 * (likewise).  Fixed length, so that the messages match whatever the
 * ranks' trials are.  Times are capped: a call at 2 s, a block at 20 s. */
#define LOGP_CONFIRM_BLOCK_INTS (3 + LOGP_CONFIRM_CALLS + 2 * LOGP_CONFIRM_BLOCKS_MAX)
void logp_confirm_block_pack(int *v, int key, const double *times, int calls, const double *cost,
                             const logp_trial_own_t *own, int blocks);

/* After the element-wise maximum over the ranks' packed messages: the
 * slowest rank's times and costs, the least rank's own, rounded as sent
 * (so that a rank's values, sent again, come back unchanged); returns
 * nonzero if every rank had `key`. */
int logp_confirm_block_unpack(const int *v, int key, double *times, int calls, double *cost, logp_trial_own_t *own,
                              int blocks);

typedef struct logp_trial_verdict {
    int winner;                       /* index into plan */
    double time[LOGP_CONFIRM_MAX];    /* s, per candidate: its fastest call */
    double base;                      /* s: what a call of the class costs without the shim's exploring:
                                         with cost[], native's block's cost per call (else the cheapest
                                         block's); without, native's time if it was a candidate, else
                                         the fastest candidate's */
    double overhead;                  /* s: the exploration's cost beyond `base`: each block of a
                                         candidate other than native, its calls' time (cost[]) minus as
                                         many calls of base, and the trial's own; without cost[] (a
                                         global clock: the blocks are not agreed one by one) estimated
                                         from the times, (BLOCK_WARM + ROUNDS) x (time - base), a lower
                                         bound */
    double barriers;                  /* s: the trial's own in it (< 0: not known, a global clock) */
    int tried;                        /* candidates with all their timed calls (the others were cut
                                         by the budget, logp_confirm_affordable) */
} logp_trial_verdict_t;

/* The verdict from times[call] (call 0 .. logp_confirm_calls - 1; the
 * slowest rank's time of each call) and, if not NULL, cost[block] (the
 * slowest rank's time of each block's calls, 0 for a block not run) and
 * own (as for logp_confirm_affordable; NULL: none): a
 * candidate's time is its fastest
 * call, since what disturbs a call only adds to it (the library's cold
 * first messages are several times their steady time:
 * docs/results/measurements-in-code.md, "cold messages"; a barrier's
 * skew can take off at most about one message time); the
 * model's pick stays unless a challenger's time is below (1 -
 * LOGP_CONFIRM_MARGIN) times its own; among such challengers the fastest
 * wins (native's time: the fastest call of both its blocks).  A time <= 0
 * is a missing measurement: a candidate without all of a block's calls
 * keeps no claim; if the pick itself has none, the fastest
 * measured candidate wins. */
void logp_confirm_verdict(const logp_trial_plan_t *plan, const double *times, const double *cost,
                          const logp_trial_own_t *own, logp_trial_verdict_t *v);

/* Nonzero if the median of samples[0 .. n-1] is more than
 * LOGP_CONFIRM_DRIFT times above or below ref (ref > 0, n >= 1). */
int logp_confirm_drifted(double ref, const double *samples, int n);

/* Median of v[0 .. n-1] (n <= 16; the mean of the middle two if n is even). */
double logp_confirm_median(const double *v, int n);

/* Learning the machine: when the model misses the trials' measured
 * times (of our exactly priced candidates, the latest LOGP_FIT_SAMPLES)
 * by more than a factor LOGP_CONFIRM_REFIT in rms of log time, and
 * moving L and G together (logp_confirm_fit_joint) at least halves that
 * error, they move; the shim then decides every class again with them
 * (at most LOGP_CONFIRM_REFITS times per communicator and run).
 * Per-algorithm factors cannot do this: the shape of the LogP-optimal
 * trees, the segment sizes and the crossovers depend on the parameters
 * themselves. */
#define LOGP_CONFIRM_REFIT 1.25
#define LOGP_CONFIRM_REFITS 3

typedef enum { LOGP_FIT_L = 0, LOGP_FIT_G = 1 } logp_fit_param_t; /* the two factors of a refit */

/* Nonzero if a measured time of `algo` can move the parameters: the
 * model prices it exactly (closed form or simulation), not by a design
 * formula (LOGP_FAMILY_ESTIMATED: such a formula misses at the right
 * parameters, and a fit would blame them for it:
 * docs/results/measurements-in-code.md, "estimated families"), and it is
 * not the library's own (native: a model of someone else's code). */
int logp_confirm_fittable(logp_algo_t algo);

/* Learning L and G together: a trial's measured time of one of our
 * fittable algorithms for one query.  The query's topo is the
 * communicator's current machine. */
typedef struct logp_fit_sample {
    logp_select_query_t q;
    logp_algo_t algo;
    double measured; /* s */
} logp_fit_sample_t;

#define LOGP_FIT_SAMPLES 8 /* the shim keeps the latest this many */

/* The factors *fL, *fG in [1/64, 64] by which to multiply L and G (in
 * every pair class) so that the samples' predictions fit their measured
 * times best in least squares of log time: coordinate descent, each
 * coordinate by golden-section search in log s (2 x 3 rounds of 20
 * predictions per sample), with a small pull towards (1, 1) so that
 * a parameter the samples do not constrain stays.  Small messages pin L,
 * large ones G (fitting only the parameter that dominates one trial's
 * prediction, as the shim did before, blamed L for G's error when an
 * 8-byte trial came first, SMPI P = 64, wrong file).  Returns the rms log
 * error at the factors, *before at (1, 1); < 0 if no sample can be
 * priced. */
double logp_confirm_fit_joint(const logp_fit_sample_t *s, int n, double *fL, double *fG, double *before);

/* Agreement across ranks: MPI_MAX reductions of a vector of
 * LOGP_AGREE_LEN doubles at points of a communicator's call count that
 * every rank computes alike (logp_confirm_agree_next).  Its lengths are
 * fixed, so the reductions match even when the ranks' trials do not (an
 * erroneous program whose ranks pass sizes of different classes; but
 * see the shim's agree.c on the head's barrier there).  The
 * vector is a body of LOGP_AGREE_SLOTS slots, then a head of
 * LOGP_AGREE_HEAD entries at LOGP_AGREE_BODY: every point reduces the
 * head, and the body only where the head says some rank has a trial
 * waiting (logp_confirm_agree_waiting): on a real machine trials settle
 * at their blocks' ends (the shim's agree.c), so a point reduces 3
 * numbers, not 1.2 KB (the shim carries them in a barrier of its own:
 * MPICH 4.0.2, n = 2, 1.1 - 2.2 us against 7 - 30 us at each point:
 * docs/results/measurements-in-code.md, "agreement points").  Each slot carries a
 * waiting trial's key (> 0), its negation (so the maximum also yields the
 * minimum: all ranks agree on a slot exactly when the two match), and per
 * call an end and a start: with a clock that all ranks share
 * (MPI_WTIME_IS_GLOBAL, as in SMPI) the absolute times, so that a call
 * takes from the last rank's start to the last rank's end (a barrier
 * leaves ranks apart by a few message times, which would otherwise count
 * as the collective's); else each rank's own duration and 0, so that it
 * takes the slowest rank's duration.  The head: how many slots some rank
 * filled (waiting), a decision some rank wants re-opened (drift; the
 * largest key wins) and whether any rank has trials under way (busy). */
#define LOGP_AGREE_SLOTS 4
#define LOGP_AGREE_SLOT_LEN (2 + 2 * LOGP_CONFIRM_CALLS)
#define LOGP_AGREE_BODY (LOGP_AGREE_SLOTS * LOGP_AGREE_SLOT_LEN)
#define LOGP_AGREE_HEAD 3
#define LOGP_AGREE_LEN (LOGP_AGREE_BODY + LOGP_AGREE_HEAD)
#define LOGP_AGREE_BUSY_GAP 32  /* calls between points while trials are under way */
#define LOGP_AGREE_IDLE_MAX 4096 /* at most this many calls between points otherwise */

/* Empty vector: no key anywhere, no drift. */
void logp_confirm_agree_init(double *vec);

/* Puts a waiting trial into slot j (0 <= j < LOGP_AGREE_SLOTS): key > 0,
 * per call ends[0 .. n-1] and starts[0 .. n-1] (n <= LOGP_CONFIRM_CALLS;
 * see above: absolute times, or durations and NULL starts); the head then
 * says at least j + 1 slots are filled. */
void logp_confirm_agree_put(double *vec, int j, int key, const double *ends, const double *starts, int n);

/* Asks for the decision `key` (> 0) to be re-opened. */
void logp_confirm_agree_put_drift(double *vec, int key);

/* After the reduction: slot j's key if every rank put that key there, 0
 * if every rank left it empty, -1 if the ranks differ.  times (if not
 * NULL) gets each call's time: the latest end minus the latest start. */
int logp_confirm_agree_key(const double *vec, int j, double *times);

/* After the reduction: the key of a decision to re-open, 0 if none. */
int logp_confirm_agree_drift(const double *vec);

/* Marks that this rank has trials under way (made progress since the
 * last point, or waiting for agreement). */
void logp_confirm_agree_put_busy(double *vec);

/* After the reduction: nonzero if any rank has trials under way. */
int logp_confirm_agree_busy(const double *vec);

/* After the head's reduction: nonzero if some rank filled a slot, so the
 * body must be reduced too (every rank reads the same head). */
int logp_confirm_agree_waiting(const double *vec);

/* The call count of a communicator's first agreement point, for a safe
 * start of `warmup` calls per class: warmup + 2 LOGP_CONFIRM_BLOCK, the
 * first call at which a point can have anything to agree on (a trial has
 * at least two blocks after its class's warm-up, and a decision can drift
 * only after its trial ended).  Earlier points carried nothing: the one
 * at call 8 cost every communicator a barrier of the shim's own, 11 us at
 * P = 256 in SMPI (docs/results/smpi-sort). */
unsigned long logp_confirm_agree_first(int warmup);

/* The call count of the next agreement point after the one at count n
 * (the first: logp_confirm_agree_first): n + LOGP_AGREE_BUSY_GAP while trials are under
 * way on some rank (`busy`, agreed), else n + n/4 within [32, 4096]: an
 * idle communicator pays one small reduction per 4096 calls (< 0.1%) in
 * the long run and about 25 in its first 4096 calls, and a trial that
 * starts late waits at most a quarter of the calls made before it (at
 * most 4096) for its verdict. */
unsigned long logp_confirm_agree_next(unsigned long n, int busy);

/* What a communicator's prices rest on, as one nonzero 64-bit number: the
 * model's revision (LOGP_MODEL_REVISION), both pair classes' parameters,
 * the network, the number of nodes and whose library "native" models.  A
 * correction is measured / predicted, so it holds only against the
 * predictions it was measured against: the learned file writes the basis
 * beside its corrections (`basis = ...`), and a run whose basis differs
 * (another model, a tuning file edited or probed again, another layout)
 * drops them and keeps the rules, which are the machine's verdicts. */
uint64_t logp_confirm_basis(const logp_topo_t *topo, logp_native_lib_t lib);

#endif
