#!/usr/bin/env python3
"""Model arithmetic (8-byte messages, G = gamma = 0) of two all-reduce shapes
on LogP parameters o, g, L (us), every rank alike:

dissemination(d): each step a rank sends its running result to the rank
  D_t ahead and combines the message sent d - 1 steps before (A_t = A_{t-1}
  + A_{t-d} ranks covered; ranges may overlap, so idempotent operators only);
  the best d of 1 .. 8.
recursive-multiplying(q): log_q P rounds of q - 1 sends, then q - 1 receives
  (radix 2, 4 or 16 where P is an exact power; the library's family also
  mixes radices, so its estimate can only be lower).

Sends start max(g, o) apart, receives likewise, one CPU for both (params.h).
Usage: python3 dissemination_vs_rmul.py   (prints the table of README.md section 8)"""
import math


def dissemination(P, o, g, L, d):
    A = [1] * d
    while len(A) < 400:
        t = len(A)
        A.append(min(P, A[t - 1] + A[t - d]))
    M = 0 if P == 1 else next(t for t in range(400) if A[t + d - 1] >= P)
    cpu = nsend = nrecv = 0.0
    arrive = {}
    for k in range(M + d - 1):
        if k < M:
            s = max(cpu, nsend)
            cpu, nsend, arrive[k] = s + o, s + max(g, o), s + o + L
        t = k - d + 1
        if 0 <= t < M:
            r = max(cpu, nrecv, arrive[t])
            cpu, nrecv = r + o, r + max(g, o)
    return cpu


def rmul(P, o, g, L, q):
    rounds = round(math.log(P, q))
    total = 0.0
    for _ in range(rounds):
        cpu = nsend = nrecv = 0.0
        arrive = []
        for _ in range(q - 1):
            s = max(cpu, nsend)
            cpu, nsend = s + o, s + max(g, o)
            arrive.append(s + o + L)
        for a in arrive:
            r = max(cpu, nrecv, a)
            cpu, nrecv = r + o, r + max(g, o)
        total += cpu
    return total


if __name__ == "__main__":
    print("| o, g, L (us) | P | dissemination (d) | recursive-multiplying | rm / dissemination |")
    print("|---|---|---|---|---|")
    for o, g, L in [(0.4, 0.6, 1.6), (0.6, 0.6, 1.2), (0.4, 0.4, 1.6), (0.2, 0.2, 1.6)]:
        for P in (16, 64, 256, 1024):
            ds, d = min((dissemination(P, o, g, L, d), d) for d in range(1, 9))
            rm = min(rmul(P, o, g, L, q) for q in (2, 4, 16)
                     if abs(round(math.log(P, q)) - math.log(P, q)) < 1e-9)
            print("| %.1f, %.1f, %.1f | %d | %.2f (%d) | %.2f | %.3f |" % (o, g, L, P, ds, d, rm, rm / ds))
