#!/usr/bin/env python3
"""A circulant (dissemination) all-reduce for non-idempotent sums, o=2 g=3 L=8 units.

Every processor sends at 4k (k = 0, 1, ...) and receives at 4k + 10 (done
4k + 12): step k's message, sent by i to i + D_k, is the sum over the interval
[i - len_k + 1, i] (indices mod P), a prefix of the sender's current interval;
it lands next to the receiver's interval: D_k = cur_{k+2} - a_k (a_k: where the run starts), cur_{k+3} =
cur_{k+2} + len_k.  The sender can form that sum from its operands only if
len_k is one of its earlier lengths cur_0..cur_k (it keeps each partial sum).
Searches len_k so that cur reaches exactly P as early as possible, builds the
schedule and checks it with gossip_sat.check (CPU, gaps, latency, and every
sent value and every final value a disjoint union of operands held)."""
import sys
import gossip_sat as gs

o, g, L, per = 2, 3, 8, 4


def search(P, steps):
    # cur[0..2] = 1; cur[k+3] = cur[k+2] + len[k]
    best = None
    def dfs(cur, lens):
        nonlocal best
        k = len(lens)
        if cur[-1] == P:
            if best is None or len(cur) < len(best[0]):
                best = (list(cur), list(lens))
            return True
        if len(cur) - 1 >= steps:
            return False
        # optimistic: full growth from here
        c = list(cur)
        while len(c) - 1 < steps and c[-1] < P:
            c.append(c[-1] + c[len(c) - 3])
        if c[-1] < P:
            return False
        pieces = [1] + [x for x in lens[:max(0, k - 2)]]
        avail = set()
        for a in range(len(pieces)):
            acc = 0
            for b in range(a, len(pieces)):
                acc += pieces[b]
                avail.add(acc)
        avail = sorted(avail, reverse=True)
        for l in avail + [0]:
            if cur[-1] + l <= P:
                if dfs(cur + [cur[-1] + l], lens + [l]):
                    return True
        return False
    dfs([1, 1, 1], [])
    return best


def build(P):
    for steps in range(3, 40):
        r = search(P, steps)
        if r:
            break
    cur, lens = r
    T = per * (len(cur) - 1)
    sends = []
    for k, l in enumerate(lens):
        if l == 0:
            continue
        # a run of the sender's pieces [a, a + l) counted from the sender leftwards
        pieces = [1] + [x for x in lens[:max(0, k - 2)] if True]
        a = None
        for s0 in range(len(pieces)):
            acc = 0
            for b in range(s0, len(pieces)):
                acc += pieces[b]
                if acc == l and a is None:
                    a = sum(pieces[:s0])
        D = cur[k + 2] - a
        for i in range(P):
            content = {(i - a - x) % P for x in range(l)}
            sends.append((i, (i + D) % P, per * k, per * k + o + L, content))
    return T, cur, lens, sends


if __name__ == "__main__":
    for P in (int(a) for a in sys.argv[1:]):
        T, cur, lens, sends = build(P)
        ok = gs.check(P, o, g, L, T, sends, "sum")
        print("P=%d T=%d units (%.2f us) lens=%s cur=%s check=%s" % (P, T, T * 0.2, lens, cur, ok))
