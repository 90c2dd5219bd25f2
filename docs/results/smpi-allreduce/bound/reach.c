/* The reach/gather lower bound of REPORT.md (Theorem 2), integer time units.
 *
 * For a candidate finish time T, phi(tau) bounds |Reach(c, tau)| (c itself
 * plus the processors that learn anything through message chains starting
 * with sends of c at >= tau) for any processor c whose CPU is free at tau;
 * psi(y) = phi(T - y) (time reversal) bounds |K_c(y)|, what c knows at a
 * time y at which its CPU is free.  With phi*(y) = max_{y' >= y} phi(y')
 * and psi*(y) = max_{y' <= y} psi(y'):
 *
 *   phi(tau) = 1 + max sum_{sends s}   phi*(s + d)          (s in [tau, T-d])
 *   subject to    sum_{receives r} psi*(r - o - L) >= P - psi(tau)
 *                                                          (r in [tau, T-o])
 *   over one processor's operations in [tau, T]: starts pairwise >= o apart,
 *   sends pairwise >= g apart, receives pairwise >= g apart;
 *   phi(tau) = 1 if no pattern meets the constraint.
 *
 * Start from phi_0(tau) = f(T - tau) (the broadcast count) and iterate
 * (phi_{k+1} uses psi_k in the constraint and itself, backwards, in the
 * objective); every iterate is a valid bound.  T is infeasible if
 * phi(0) < P (the origin of any item reaches fewer than P processors).
 *
 * usage: reach o g L P [P ...]        prints P, broadcast bound, this bound
 *        reach -v o g L P T           prints phi for one T (debug)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int o, g, L, d;

static long *fcount(int xmax)
{
    long *f = calloc((size_t)xmax + 1, sizeof(long));
    int gap = g > o ? g : o;
    for (int x = 0; x <= xmax; x++) {
        if (x < d) {
            f[x] = 1;
            continue;
        }
        long s = 1;
        for (int j = 0; x - d - j * gap >= 0; j++)
            s += f[x - d - j * gap];
        f[x] = s > (1L << 40) ? (1L << 40) : s;
    }
    return f;
}

static int bcast_T(long P)
{
    for (int t = 0;; t++) {
        long *f = fcount(t);
        long v = f[t];
        free(f);
        if (v >= P)
            return t;
    }
}

/* One processor's best send value on [tau, T] with receive value >= need.
 * sv[s]: value of a send at s (0: not allowed), rv[r]: value of a receive at r. */
static long best(int tau, int T, const long *sv, const long *rv, long need, long cap)
{
    /* state: a in 0..o, b in 0..g, c in 0..g, acc in 0..need -> best send value (-1: unreachable) */
    int A = o + 1, B = g + 1, C = g + 1;
    long N = need + 1;
    size_t n = (size_t)A * B * C * N;
    long *cur = malloc(n * sizeof(long)), *nxt = malloc(n * sizeof(long));
#define IDX(a, b, c, k) ((((size_t)(a) * B + (b)) * C + (c)) * N + (k))
    for (size_t i = 0; i < n; i++)
        cur[i] = -1;
    cur[IDX(o, g, g, 0)] = 0;
    for (int t = tau; t <= T; t++) {
        for (size_t i = 0; i < n; i++)
            nxt[i] = -1;
        for (int a = 0; a <= o; a++)
            for (int b = 0; b <= g; b++)
                for (int c = 0; c <= g; c++)
                    for (long k = 0; k <= need; k++) {
                        long v = cur[IDX(a, b, c, k)];
                        if (v < 0)
                            continue;
                        int a1 = a + 1 > o ? o : a + 1, b1 = b + 1 > g ? g : b + 1, c1 = c + 1 > g ? g : c + 1;
                        size_t j = IDX(a1, b1, c1, k);
                        if (nxt[j] < v)
                            nxt[j] = v;
                        if (a < o)
                            continue;
                        int oo = 1 > o ? o : 1, gg = 1 > g ? g : 1;
                        if (b >= g && sv[t] > 0) { /* send at t */
                            long v2 = v + sv[t];
                            if (v2 > cap)
                                v2 = cap;
                            j = IDX(oo, gg, c1, k);
                            if (nxt[j] < v2)
                                nxt[j] = v2;
                        }
                        if (c >= g && rv[t] > 0) { /* receive at t */
                            long k2 = k + rv[t];
                            if (k2 > need)
                                k2 = need;
                            j = IDX(oo, b1, gg, k2);
                            if (nxt[j] < v)
                                nxt[j] = v;
                        }
                    }
        long *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    long r = -1;
    for (int a = 0; a <= o; a++)
        for (int b = 0; b <= g; b++)
            for (int c = 0; c <= g; c++) {
                long v = cur[IDX(a, b, c, need)];
                if (v > r)
                    r = v;
            }
    free(cur);
    free(nxt);
    return r; /* -1: infeasible */
#undef IDX
}

/* phi for one T; returns phi(0) (capped at P); iterates to a fixed point. */
static long phi0(long P, int T, int verbose, int *iters)
{
    long *f = fcount(T + 1);
    long *phi = malloc(sizeof(long) * (size_t)(T + 2)), *psi = malloc(sizeof(long) * (size_t)(T + 2));
    long *sv = malloc(sizeof(long) * (size_t)(T + 2)), *rv = malloc(sizeof(long) * (size_t)(T + 2));
    long *phistar = malloc(sizeof(long) * (size_t)(T + 2)), *psistar = malloc(sizeof(long) * (size_t)(T + 2));
    for (int t = 0; t <= T; t++) {
        phi[t] = f[T - t] > P ? P : f[T - t];
        psi[t] = f[t] > P ? P : f[t];
    }
    int it;
    for (it = 0; it < 1000; it++) {
        /* psi* running max (from the previous iterate) */
        long m = 0;
        for (int y = 0; y <= T; y++) {
            if (psi[y] > m)
                m = psi[y];
            psistar[y] = m;
        }
        long *nphi = malloc(sizeof(long) * (size_t)(T + 2));
        nphi[T] = 1;
        phistar[T] = 1;
        for (int tau = T; tau >= 0; tau--) {
            for (int t = 0; t <= T; t++) {
                sv[t] = (t >= tau && t <= T - d) ? phistar[t + d] : 0; /* t + d > tau: computed */
                rv[t] = (t >= tau && t >= o + L && t <= T - o) ? psistar[t - o - L] : 0;
            }
            long need = P - psi[tau];
            if (need < 0)
                need = 0;
            long b = best(tau, T, sv, rv, need, P);
            long v = b < 0 ? 1 : 1 + b;
            if (v > P)
                v = P;
            nphi[tau] = v;
            phistar[tau] = v > (tau < T ? phistar[tau + 1] : 0) ? v : phistar[tau + 1];
        }
        int changed = 0;
        for (int t = 0; t <= T; t++) {
            if (nphi[t] > phi[t] && it > 0)
                fprintf(stderr, "warning: not monotone at T=%d t=%d\n", T, t);
            if (nphi[t] != phi[t])
                changed = 1;
            phi[t] = nphi[t];
        }
        free(nphi);
        for (int y = 0; y <= T; y++)
            psi[y] = phi[T - y];
        if (!changed)
            break;
    }
    if (verbose) {
        printf("T=%d iterations=%d\n tau phi psi f(T-tau)\n", T, it);
        for (int t = 0; t <= T; t++)
            printf(" %3d %6ld %6ld %6ld\n", t, phi[t], psi[t], f[T - t]);
    }
    if (iters)
        *iters = it;
    long r = phi[0];
    free(f);
    free(phi);
    free(psi);
    free(sv);
    free(rv);
    free(phistar);
    free(psistar);
    return r;
}

int main(int argc, char **argv)
{
    int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    if (verbose) {
        argv++;
        argc--;
    }
    if (argc < 5) {
        fprintf(stderr, "usage: reach [-v] o g L P [P...] | reach -v o g L P T\n");
        return 2;
    }
    o = atoi(argv[1]);
    g = atoi(argv[2]);
    L = atoi(argv[3]);
    d = 2 * o + L;
    if (verbose) {
        long P = atol(argv[4]);
        int T = atoi(argv[5]);
        printf("phi(0) = %ld (P = %ld)\n", phi0(P, T, 1, NULL), P);
        return 0;
    }
    for (int i = 4; i < argc; i++) {
        long P = atol(argv[i]);
        int tb = bcast_T(P), T, its = 0;
        if (P <= 1) {
            printf("%ld 0 0\n", P);
            continue;
        }
        for (T = tb;; T++)
            if (phi0(P, T, 0, &its) >= P)
                break;
        printf("P=%ld bcast=%d reach=%d (iterations %d)\n", P, tb, T, its);
        fflush(stdout);
    }
    return 0;
}
