#!/usr/bin/env python3
"""Exact optimal all-reduce (gossip) time in the library's LogP semantics, by SAT.

Semantics (src/model/params.h, sim_rank.c; 8-byte messages, G = gamma = 0):
  * a send started by u at s keeps u's CPU busy [s, s+o); the message
    carries what u holds at s and arrives at s + o + L;
  * a receive started by v at r >= arrival keeps v's CPU busy [r, r+o);
    v holds the message's contents from r + o on;
  * a processor's operations never overlap (one CPU); consecutive sends
    start >= g apart, consecutive receives start >= g apart; nothing
    constrains a send against a receive except the CPU;
  * messages wait at the receiver in any number and are taken in any order.
With integer o, g, L every schedule can be floored to integer start times
without finishing later (all constraints are differences >= integers), so
integer time steps lose nothing.

`mode`:
  gossip  -- knowledge is a set, a message carries the sender's whole set
             (a relaxation of every all-reduce: the bound must lie below it);
  sum     -- a message carries ONE partial sum (a set of items) that the
             sender can form as a disjoint union of operands it holds (its own
             item and messages it received); a processor is done when it can
             form the full set as such a union.  Exact for non-idempotent
             operators (floating-point sums) with free combining.

usage: gossip_sat.py P o g L [mode] [--tmax N]
prints the optimum T and a schedule that achieves it (checked by check()).
"""
import itertools
import os
import subprocess
import sys
import tempfile


class CNF:
    def __init__(self):
        self.n = 0
        self.clauses = []

    def var(self):
        self.n += 1
        return self.n

    def add(self, c):
        self.clauses.append(c)

    def amo(self, lits):
        lits = list(lits)
        if len(lits) <= 5:
            for a, b in itertools.combinations(lits, 2):
                self.add([-a, -b])
            return
        # sequential (ladder) encoding
        s = [self.var() for _ in lits[:-1]]
        self.add([-lits[0], s[0]])
        for k in range(1, len(lits) - 1):
            self.add([-lits[k], s[k]])
            self.add([-s[k - 1], s[k]])
            self.add([-lits[k], -s[k - 1]])
        self.add([-lits[-1], -s[-1]])

    def solve(self, timeout=None):
        fd, path = tempfile.mkstemp(suffix=".cnf", dir=os.environ.get("TMPDIR", "/tmp"))
        with os.fdopen(fd, "w") as f:
            f.write("p cnf %d %d\n" % (self.n, len(self.clauses)))
            for c in self.clauses:
                f.write(" ".join(map(str, c)) + " 0\n")
        cmd = ["nice", "-n", "19", "cadical", "-q"]
        if timeout:
            cmd += ["-t", str(timeout)]
        cmd.append(path)
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        os.unlink(path)
        sat = None
        val = {}
        for line in out.splitlines():
            if line.startswith("s "):
                sat = {"s SATISFIABLE": True, "s UNSATISFIABLE": False}.get(line.strip())
            elif line.startswith("v "):
                for x in line[2:].split():
                    x = int(x)
                    if x:
                        val[abs(x)] = x > 0
        return sat, val


def encode(P, o, g, L, T, mode="gossip"):
    c = CNF()
    d = 2 * o + L
    S = {}  # (u, v, s)
    R = {}  # (v, u, s, r)
    for u in range(P):
        for v in range(P):
            if u == v:
                continue
            for s in range(0, T - d + 1):
                S[u, v, s] = c.var()
                for r in range(s + o + L, T - o + 1):
                    R[v, u, s, r] = c.var()
                    c.add([-R[v, u, s, r], S[u, v, s]])
                c.amo([R[v, u, s, r] for r in range(s + o + L, T - o + 1)])
                # a message nobody receives is useless: forbid it (WLOG)
                c.add([-S[u, v, s]] + [R[v, u, s, r] for r in range(s + o + L, T - o + 1)])
    opS = {(x, t): c.var() for x in range(P) for t in range(T + 1)}
    opR = {(x, t): c.var() for x in range(P) for t in range(T + 1)}
    for (u, v, s), x in S.items():
        c.add([-x, opS[u, s]])
    for (v, u, s, r), x in R.items():
        c.add([-x, opR[v, r]])
    for x in range(P):
        for t in range(T + 1):
            c.amo([S[x, v, t] for v in range(P) if (x, v, t) in S])
            c.amo([R[x, u, s, t] for u in range(P) for s in range(T + 1) if (x, u, s, t) in R])
            # opS/opR only where some op exists
            c.add([-opS[x, t]] + [S[x, v, t] for v in range(P) if (x, v, t) in S])
            c.add([-opR[x, t]] + [R[x, u, s, t] for u in range(P) for s in range(T + 1) if (x, u, s, t) in R])
            win_o = [opS[x, t2] for t2 in range(t, min(T, t + o - 1) + 1)] + \
                    [opR[x, t2] for t2 in range(t, min(T, t + o - 1) + 1)]
            c.amo(win_o)
            c.amo([opS[x, t2] for t2 in range(t, min(T, t + g - 1) + 1)])
            c.amo([opR[x, t2] for t2 in range(t, min(T, t + g - 1) + 1)])
    if mode == "gossip":
        K = {}
        for v in range(P):
            for i in range(P):
                for t in range(T + 1):
                    K[v, i, t] = c.var()
                    if i == v:
                        c.add([K[v, i, t]])
                    elif t == 0:
                        c.add([-K[v, i, t]])
        for v in range(P):
            for i in range(P):
                if i == v:
                    continue
                for t in range(1, T + 1):
                    just = [K[v, i, t - 1]]
                    r = t - o
                    for u in range(P):
                        for s in range(0, T + 1):
                            if (v, u, s, r) in R:
                                q = c.var()
                                c.add([-q, R[v, u, s, r]])
                                c.add([-q, K[u, i, s]])
                                just.append(q)
                    c.add([-K[v, i, t]] + just)
                c.add([K[v, i, T]])
        return c, S, R, None
    # mode == "sum": message (u,s) carries a chosen set M[u,v,s][i]; a processor
    # holds "operands": its own item and every message received (complete by
    # time t).  Send content must be the disjoint union of some operands held
    # at s; final: the full set as a disjoint union of operands held at T.
    M = {}
    for (u, v, s) in S:
        for i in range(P):
            M[u, v, s, i] = c.var()
    # operand ids for processor x: ('own',) or ('msg', u, s) for received messages
    def union_constraint(x, t, target_lits, tag):
        """target_lits[i]: literal (or True/False) that item i must be in the
        union; choose operands held by x at time t, pairwise disjoint, whose
        union is exactly target.  Returns nothing (adds clauses)."""
        # selection variables
        ops = []
        own = c.var()
        ops.append((own, {x: True}))  # own item set {x}
        for u in range(P):
            if u == x:
                continue
            for s in range(0, T + 1):
                if (x, u, s, 0) is None:
                    pass
                for r in range(0, t - o + 1):
                    if (x, u, s, r) in R:
                        sel = c.var()
                        c.add([-sel, R[x, u, s, r]])
                        ops.append((sel, ("msg", u, s)))
        # coverage per item: item i in target <-> exactly one selected operand contains i
        for i in range(P):
            cont = []
            for sel, what in ops:
                if isinstance(what, dict):
                    if i == x:
                        cont.append(sel)
                else:
                    _, u, s = what
                    z = c.var()  # sel and item i in message (u -> x at s)
                    c.add([-z, sel])
                    c.add([-z, M[u, x, s, i]])
                    c.add([z, -sel, -M[u, x, s, i]])
                    cont.append(z)
            tl = target_lits[i]
            c.amo(cont)
            if tl is True:
                c.add(cont)
            elif tl is False:
                for z in cont:
                    c.add([-z])
            else:
                c.add([-tl] + cont)
                for z in cont:
                    c.add([-z, tl])
    for (u, v, s) in S:
        union_constraint(u, s, [M[u, v, s, i] for i in range(P)], ("send", u, v, s))
        # useless: a message must be nonempty
        c.add([-S[u, v, s]] + [M[u, v, s, i] for i in range(P)])
    for x in range(P):
        union_constraint(x, T, [True] * P, ("final", x))
    return c, S, R, M


def check(P, o, g, L, T, sends, mode):
    """Independent check of a decoded schedule.  sends: list of
    (u, v, s, r, content) ; returns True/raises."""
    d = 2 * o + L
    ops = {x: [] for x in range(P)}
    for (u, v, s, r, content) in sends:
        assert r >= s + o + L, "received before arrival"
        assert r + o <= T
        ops[u].append((s, "S"))
        ops[v].append((r, "R"))
    for x in range(P):
        lst = sorted(ops[x])
        for a, b in zip(lst, lst[1:]):
            assert b[0] >= a[0] + o, ("cpu overlap", x, a, b)
        for kind in "SR":
            k = [t for t, kk in lst if kk == kind]
            for a, b in zip(k, k[1:]):
                assert b >= a + g, ("gap", x, kind, a, b)
    # knowledge / content in time order
    if mode == "gossip":
        know = {x: {x} for x in range(P)}
        events = sorted(sends, key=lambda e: e[2])
        # simulate time steps
        for t in range(T + 1):
            for (u, v, s, r, content) in sends:
                if r + o == t:
                    know[v] |= content
            for (u, v, s, r, content) in sends:
                if s == t:
                    assert content <= know[u]
        for x in range(P):
            assert know[x] == set(range(P)), ("incomplete", x, know[x])
        return True
    # sum: operands held, disjoint unions
    held = {x: [frozenset([x])] for x in range(P)}

    def formable(x, target):
        opsx = [h for h in held[x] if h <= target]
        target = frozenset(target)
        # exact cover search
        def rec(rem, idx):
            if not rem:
                return True
            for j in range(idx, len(opsx)):
                h = opsx[j]
                if h <= rem:
                    if rec(rem - h, j + 1):
                        return True
            return False
        return rec(target, 0)
    for t in range(T + 1):
        for (u, v, s, r, content) in sends:
            if r + o == t:
                held[v].append(frozenset(content))
        for (u, v, s, r, content) in sends:
            if s == t:
                assert formable(u, frozenset(content)), ("content not formable", u, s, content)
    for x in range(P):
        assert formable(x, frozenset(range(P))), ("final not formable", x)
    return True


def solve_T(P, o, g, L, T, mode, timeout=None):
    c, S, R, M = encode(P, o, g, L, T, mode)
    sat, val = c.solve(timeout=timeout)
    if not sat:
        return sat, None
    sends = []
    for (v, u, s, r), x in R.items():
        if val.get(x):
            if mode == "gossip":
                sends.append((u, v, s, r, None))
            else:
                content = {i for i in range(P) if val.get(M[u, v, s, i])}
                sends.append((u, v, s, r, content))
    if mode == "gossip":
        # contents: the sender's knowledge at s (recomputed)
        know = {x: {x} for x in range(P)}
        out = []
        cont = {}
        for t in range(T + 1):
            for (u, v, s, r, _) in sends:
                if r + o == t:
                    know[v] |= cont[u, v, s]
            for (u, v, s, r, _) in sends:
                if s == t:
                    cont[u, v, s] = set(know[u])
        sends = [(u, v, s, r, cont[u, v, s]) for (u, v, s, r, _) in sends]
    check(P, o, g, L, T, sends, mode)
    return True, sorted(sends, key=lambda e: (e[2], e[0]))


def optimum(P, o, g, L, mode, lo=0, tmax=200):
    """Smallest T with a schedule; lo: a known lower bound (checked UNSAT at lo-1)."""
    if P == 1:
        return 0, []
    T = lo
    if lo > 0:
        sat, _ = solve_T(P, o, g, L, lo - 1, mode)
        assert sat is False, "lower bound violated!"
    while T <= tmax:
        sat, sched = solve_T(P, o, g, L, T, mode)
        if sat:
            return T, sched
        T += 1
    return None, None


if __name__ == "__main__":
    P, o, g, L = (int(a) for a in sys.argv[1:5])
    mode = sys.argv[5] if len(sys.argv) > 5 else "gossip"
    T, sched = optimum(P, o, g, L, mode)
    print("P=%d o=%d g=%d L=%d mode=%s optimum T=%s" % (P, o, g, L, mode, T))
    for e in sched:
        print("  %d -> %d send@%d recv@%d %s" % (e[0], e[1], e[2], e[3], sorted(e[4])))
