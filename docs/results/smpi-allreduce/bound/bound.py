#!/usr/bin/env python3
"""Lower bounds on the LogP all-reduce (gossip) time, integer time units.

bcast(P,o,g,L):   the broadcast bound (f_t = 1 + sum_k f_{t-d-k*max(g,o)}).
pot(P,o,g,L,p,lam): the power-potential bound of REPORT.md (Theorem 1).
best(P,o,g,L):    max over a grid of (p, lam) of pot, and bcast.
"""
import math
import sys
from functools import lru_cache


def bcast_T(P, o, g, L):
    d = 2 * o + L
    gap = max(g, o)
    f = []
    t = 0
    while True:
        v = 1 + sum(f[t - d - k * gap] for k in range(0, (t - d) // gap + 1)) if t >= d else 1
        f.append(v)
        if v >= P:
            return t
        t += 1


_pareto_cache = {}


def pareto(o, g, L, xmax):
    """pareto[x]: list of (nR, nS) pairs (max nR for each nS) achievable by one
    processor with receive starts in [0, x-o], send starts in [0, x-d]."""
    key = (o, g, L, xmax)
    if key in _pareto_cache:
        return _pareto_cache[key]
    d = 2 * o + L
    res = []
    for x in range(xmax + 1):
        hi = x - o
        if hi < 0:
            res.append([(0, 0)])
            continue
        # backwards DP; state (a, b, c) = positions since the later op/send/recv start, capped
        cur = {(o, g, g): {0: 0}}
        for pos in range(hi, -1, -1):
            nxt = {}
            def put(k, nS, nR):
                dct = nxt.setdefault(k, {})
                if dct.get(nS, -1) < nR:
                    dct[nS] = nR
            for (a, b, c), dct in cur.items():
                k0 = (min(a + 1, o), min(b + 1, g), min(c + 1, g))
                for nS, nR in dct.items():
                    put(k0, nS, nR)
                    if a >= o and c >= g:
                        put((min(1, o), min(b + 1, g), min(1, g)), nS, nR + 1)
                    if a >= o and b >= g and pos <= x - d:
                        put((min(1, o), min(1, g), min(c + 1, g)), nS + 1, nR)
            cur = nxt
        best = {}
        for dct in cur.values():
            for nS, nR in dct.items():
                if best.get(nS, -1) < nR:
                    best[nS] = nR
        res.append(sorted(best.items() and [(nR, nS) for nS, nR in best.items()]))
    _pareto_cache[key] = res
    return res


def kernel(o, g, L, xmax, cR, cS):
    par = pareto(o, g, L, xmax)
    return [max(cR * nR + cS * nS for nR, nS in par[x]) for x in range(xmax + 1)]


def pot_T(P, o, g, L, p, lam, tmax=400):
    """Smallest t with F(t) >= P^p, F(t) = 1 + sum_{x=1..t} F(t-x) dw(x)."""
    cR = lam ** (1 - p) - 1.0
    cS = (1 - lam) ** (1 - p)
    w = kernel(o, g, L, tmax, cR, cS)
    dw = [0.0] + [w[x] - w[x - 1] for x in range(1, tmax + 1)]
    F = [1.0]
    target = float(P) ** p * (1 - 1e-12)
    if F[0] >= target:
        return 0
    for t in range(1, tmax + 1):
        F.append(1.0 + sum(F[t - x] * dw[x] for x in range(1, t + 1) if dw[x] != 0.0))
        if F[t] >= target:
            return t
    return None


if __name__ == "__main__":
    o, g, L = (int(a) for a in sys.argv[1:4])
    for P in [int(a) for a in sys.argv[4:]]:
        b = bcast_T(P, o, g, L)
        best = (0, None)
        for p in [1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0]:
            for lam in [i / 40 for i in range(1, 40)]:
                t = pot_T(P, o, g, L, p, lam, tmax=4 * b + 40)
                if t is not None and t > best[0]:
                    best = (t, (p, lam))
        print(P, "bcast", b, "pot", best)
