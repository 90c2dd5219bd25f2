#!/usr/bin/env python3
"""The "double root" lower bound (REPORT.md, Theorem 2), integer time units.

Every processor v is the root of its own item's broadcast AND the root of its
own gather.  With f(x) the LogP broadcast count (f(x) = 0 for x < 0, 1 for
0 <= x < d, f(x) = 1 + sum_{j>=0} f(x - d - j*gap), d = 2o + L,
gap = max(g, o)), a schedule finishing by T needs, at EVERY processor,
send starts s_1 < s_2 < ... and receive starts r_1 < r_2 < ... such that
    (A)  sum_k f(T - d - s_k)     >= P - 1   (v's item reaches everyone)
    (B)  sum_k f(r_k - o - L)     >= P - 1   (everyone's item reaches v)
    (C)  the operations fit one CPU: starts pairwise >= o apart, sends
         pairwise >= g apart, receives pairwise >= g apart.
feasible(P, o, g, L, T) decides whether one processor can meet (A)-(C);
bound(P, o, g, L) is the least T for which it can.
"""
import sys


def fcount(o, g, L, xmax):
    d = 2 * o + L
    gap = max(g, o)
    f = [0] * (xmax + 1)
    for x in range(xmax + 1):
        if x < d:
            f[x] = 1
        else:
            f[x] = 1 + sum(f[x - d - j * gap] for j in range((x - d) // gap + 1))
    return f


def F(f, x):
    return 0 if x < 0 else f[x]


def feasible(P, o, g, L, T, f=None, want_pattern=False):
    if P <= 1:
        return True
    d = 2 * o + L
    if f is None:
        f = fcount(o, g, L, max(T, 0) + 1)
    need = P - 1
    # DP over start positions t = 0..T; state: (since last op start, since
    # last send start, since last receive start) capped at (o, g, g), and the
    # send value so far (capped at need) -> best receive value (capped).
    INF_O, INF_G = o, g
    cur = {(INF_O, INF_G, INF_G, 0): (0, None)}
    for t in range(0, T + 1):
        nxt = {}

        def put(key, val, back):
            old = nxt.get(key)
            if old is None or old[0] < val:
                nxt[key] = (val, back)
        for (a, b, c, sv), (rv, back) in cur.items():
            # idle at t
            put((min(a + 1, INF_O), min(b + 1, INF_G), min(c + 1, INF_G), sv), rv, back if not want_pattern else back)
            if a >= o:
                # send at t
                if b >= g and t <= T - d:
                    nsv = min(need, sv + F(f, T - d - t))
                    put((min(1, INF_O), min(1, INF_G), min(c + 1, INF_G), nsv), rv,
                        (("S", t), back) if want_pattern else None)
                # receive at t
                if c >= g and t >= o + L and t + o <= T:
                    nrv = min(need, rv + F(f, t - o - L))
                    put((min(1, INF_O), min(b + 1, INF_G), min(1, INF_G), sv), nrv,
                        (("R", t), back) if want_pattern else None)
        cur = nxt
    for (a, b, c, sv), (rv, back) in cur.items():
        if sv >= need and rv >= need:
            if want_pattern:
                pat = []
                while back:
                    pat.append(back[0])
                    back = back[1]
                return list(reversed(pat))
            return True
    return False


def bound(P, o, g, L):
    if P <= 1:
        return 0
    T = 0
    f = fcount(o, g, L, 64)
    while True:
        if len(f) <= T + 1:
            f = fcount(o, g, L, 2 * T + 2)
        if feasible(P, o, g, L, T, f):
            return T
        T += 1


if __name__ == "__main__":
    o, g, L = (int(a) for a in sys.argv[1:4])
    for P in (int(a) for a in sys.argv[4:]):
        T = bound(P, o, g, L)
        print(P, T, feasible(P, o, g, L, T, want_pattern=True))
