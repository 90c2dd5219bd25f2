#!/usr/bin/env python3
"""Small-P verification: reach bound <= exact optimum (SAT), for several parameter sets.
usage: verify.py MODE o g L P [P ...]   (MODE gossip|sum)"""
import subprocess, sys, time, re
import gossip_sat as gs
from bound import bcast_T

def reach_bound(o, g, L, P):
    out = subprocess.run(["./reach", str(o), str(g), str(L), str(P)], capture_output=True, text=True).stdout
    return int(re.search(r"reach=(\d+)", out).group(1))

def solve(P, o, g, L, T, mode, timeout):
    c, S, R, M = gs.encode(P, o, g, L, T, mode)
    sat, val = c.solve(timeout=timeout)
    return sat

TO = 60
mode = sys.argv[1]
o, g, L = (int(a) for a in sys.argv[2:5])
for P in (int(a) for a in sys.argv[5:]):
    t0 = time.time()
    b = bcast_T(P, o, g, L)
    B = reach_bound(o, g, L, P)
    below = solve(P, o, g, L, B - 1, mode, TO)
    T = B
    res = None
    while T <= B + 8:
        sat, sched = gs.solve_T(P, o, g, L, T, mode, TO)
        if sat:
            res = T
            break
        if sat is None:
            res = "unknown (T=%d timed out)" % T
            break
        T += 1
    print("mode=%s o=%d g=%d L=%d P=%d bcast=%d reach=%d  SAT(T=reach-1)=%s  optimum=%s  (%.1fs)" %
          (mode, o, g, L, P, b, B, below, res, time.time() - t0), flush=True)
