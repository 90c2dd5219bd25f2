# The shim's collectives as a Python program meets them (tests/mpi/run_mpi4py.sh):
# mpi4py's buffer calls (NumPy arrays: MPI_Bcast, MPI_Reduce, MPI_Allreduce,
# MPI_Alltoall, MPI_Alltoallv, in place, nonblocking) and its object calls
# (pickled, variable length), each result checked against one computed here
# from every rank's known input.  Integer data and operators whose result is
# exact whatever the combining order, and doubles whose sums are exact (small
# integers), so every algorithm must give the same bits.
# Prints "mpi4py: N checks, M failed" on rank 0; exits 1 if any failed.
import sys

import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
checks = 0
failed = 0


def check(ok, what):
    global checks, failed
    checks += 1
    if not ok:
        failed += 1
        print(f"mpi4py: rank {rank}: FAIL {what}", file=sys.stderr, flush=True)


def data(r, n, dtype, salt=0):
    """Rank r's input of n elements: small integers, exact in every type."""
    return ((np.arange(n, dtype=np.int64) * 7 + r * 13 + salt) % 101).astype(dtype)


SIZES = [0, 1, 3, 128, 1000, 40000]  # elements: 0 B up to 320 KiB of doubles
TYPES = [np.float64, np.int32, np.int64, np.float32]

for n in SIZES:
    for dt in TYPES:
        tag = f"n={n} {np.dtype(dt).name}"
        for root in sorted({0, size - 1}):
            buf = data(root, n, dt) if rank == root else np.zeros(n, dtype=dt)
            comm.Bcast(buf, root=root)
            check(np.array_equal(buf, data(root, n, dt)), f"Bcast {tag} root {root}")

            mine = data(rank, n, dt)
            out = np.zeros(n, dtype=dt) if rank == root else None
            comm.Reduce(mine, out, op=MPI.SUM, root=root)
            if rank == root:
                want = sum(data(r, n, np.int64) for r in range(size)).astype(dt)
                check(np.array_equal(out, want), f"Reduce SUM {tag} root {root}")
            out = np.zeros(n, dtype=dt) if rank == root else None
            comm.Reduce(mine, out, op=MPI.MAX, root=root)
            if rank == root:
                want = np.max([data(r, n, dt) for r in range(size)], axis=0) if n else np.zeros(0, dt)
                check(np.array_equal(out, want), f"Reduce MAX {tag} root {root}")
            # in place at the root
            inplace = data(rank, n, dt)
            if rank == root:
                comm.Reduce(MPI.IN_PLACE, inplace, op=MPI.SUM, root=root)
                want = sum(data(r, n, np.int64) for r in range(size)).astype(dt)
                check(np.array_equal(inplace, want), f"Reduce IN_PLACE {tag} root {root}")
            else:
                comm.Reduce(inplace, None, op=MPI.SUM, root=root)

        mine = data(rank, n, dt)
        out = np.empty(n, dtype=dt)
        comm.Allreduce(mine, out, op=MPI.SUM)
        want = sum(data(r, n, np.int64) for r in range(size)).astype(dt)
        check(np.array_equal(out, want), f"Allreduce SUM {tag}")
        io = data(rank, n, dt)
        comm.Allreduce(MPI.IN_PLACE, io, op=MPI.MIN)
        want = np.min([data(r, n, dt) for r in range(size)], axis=0) if n else np.zeros(0, dt)
        check(np.array_equal(io, want), f"Allreduce IN_PLACE MIN {tag}")
        req = comm.Iallreduce(mine, out, op=MPI.SUM)
        req.Wait()
        want = sum(data(r, n, np.int64) for r in range(size)).astype(dt)
        check(np.array_equal(out, want), f"Iallreduce SUM {tag}")
        buf = data(0, n, dt) if rank == 0 else np.zeros(n, dtype=dt)
        comm.Ibcast(buf, root=0).Wait()
        check(np.array_equal(buf, data(0, n, dt)), f"Ibcast {tag}")

    # all-to-all: n elements per peer (at most 1000: size x n in each buffer)
    m = min(n, 1000)
    for dt in (np.float64, np.int32):
        tag = f"n={m} {np.dtype(dt).name}"
        send = np.concatenate([data(rank, m, dt, salt=d) for d in range(size)])
        recv = np.empty(size * m, dtype=dt)
        comm.Alltoall(send, recv)
        want = np.concatenate([data(s, m, dt, salt=rank) for s in range(size)])
        check(np.array_equal(recv, want), f"Alltoall {tag}")
        io = send.copy()
        comm.Alltoall(MPI.IN_PLACE, io)
        check(np.array_equal(io, want), f"Alltoall IN_PLACE {tag}")
        comm.Ialltoall(send, recv).Wait()
        check(np.array_equal(recv, want), f"Ialltoall {tag}")

# all-to-all-v: rank s sends (s + d + k) % 4 * k elements to rank d (zeros included),
# packed in reverse destination order (displacements out of order)
for k in (0, 1, 17, 300):
    cnt = lambda s, d: ((s + d + k) % 4) * k  # noqa: E731
    scounts = [cnt(rank, d) for d in range(size)]
    rcounts = [cnt(s, rank) for s in range(size)]
    sdispl, off = [0] * size, 0
    for d in reversed(range(size)):
        sdispl[d], off = off, off + scounts[d]
    send = np.empty(off, dtype=np.float64)
    for d in range(size):
        send[sdispl[d]:sdispl[d] + scounts[d]] = data(rank, scounts[d], np.float64, salt=d)
    rdispl = list(np.cumsum([0] + rcounts[:-1]))
    recv = np.full(sum(rcounts), -1.0)
    comm.Alltoallv([send, (scounts, sdispl), MPI.DOUBLE], [recv, (rcounts, rdispl), MPI.DOUBLE])
    ok = all(np.array_equal(recv[rdispl[s]:rdispl[s] + rcounts[s]], data(s, rcounts[s], np.float64, salt=rank))
             for s in range(size))
    check(ok, f"Alltoallv k={k}")

# the object interface: pickled, lengths differ by rank (MPI_Bcast of bytes,
# mpi4py's own reduce and all-to-all over point-to-point and MPI collectives)
for root in sorted({0, size - 1}):
    obj = {"root": root, "list": list(range(root * 50))} if rank == root else None
    got = comm.bcast(obj, root=root)
    check(got == {"root": root, "list": list(range(root * 50))}, f"bcast object root {root}")
    s = comm.reduce(rank + 1, op=MPI.SUM, root=root)
    if rank == root:
        check(s == size * (size + 1) // 2, f"reduce object root {root}")
check(comm.allreduce(rank, op=MPI.MAX) == size - 1, "allreduce object MAX")
got = comm.alltoall([f"{rank}->{d}" * (d + 1) for d in range(size)])
check(got == [f"{s}->{rank}" * (rank + 1) for s in range(size)], "alltoall objects")

# a sub-communicator (the even ranks, and the odd ones) and a duplicate
sub = comm.Split(rank % 2, -rank)
v = np.full(5, float(rank))
w = np.empty(5)
sub.Allreduce(v, w, op=MPI.SUM)
check(np.all(w == sum(r for r in range(size) if r % 2 == rank % 2)), "Allreduce on a split communicator")
sub.Free()
dup = comm.Dup()
b = np.arange(10, dtype=np.int32) if rank == 0 else np.zeros(10, dtype=np.int32)
dup.Bcast(b, root=0)
check(np.array_equal(b, np.arange(10, dtype=np.int32)), "Bcast on a duplicate")
dup.Free()

total = comm.allreduce(failed, op=MPI.SUM)
nchecks = comm.allreduce(checks, op=MPI.SUM)
if rank == 0:
    print(f"mpi4py: {nchecks} checks, {total} failed", flush=True)
sys.exit(1 if total else 0)
