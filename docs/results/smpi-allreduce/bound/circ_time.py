# time of the circulant schedule (circulant_sum.py, P=256: 14 steps) in the model's
# real parameters with 8-byte messages: L' = L + 7G, receive-and-combine o + 8 gamma
o, g, L = 0.4e-6, 0.6e-6, 1.6e-6
import sys
m = int(sys.argv[1]) if len(sys.argv) > 1 else 8
inj, comb = (m - 1) * 0.1e-9, m * 0.3e-9
steps = 14
# per-processor op order (identical at every processor by symmetry): sends at
# step k, receive of step k's message after the send of step k+3 (k+2 < steps)
order = []
for k in range(steps + 3):
    if k - 3 >= 0 and k - 3 < steps:
        order.append(("R", k - 3))  # merge of step k-3 first: step k's content may use it
    if k < steps:
        order.append(("S", k))
    # receives of the last steps come after all sends
cpu = nsend = nrecv = 0.0
sent = {}
t_end = 0.0
for kind, k in order:
    if kind == "S":
        s = max(cpu, nsend)
        sent[k] = s
        cpu = s + o
        nsend = s + max(g, o + inj)
    else:
        arr = sent[k] + o + inj + L
        r = max(cpu, nrecv, arr)
        cpu = r + o + comb
        nrecv = r + max(g, o + inj)
        t_end = cpu
print("circulant P=256 with %d-byte messages (G, gamma of default.conf): %.4f us" % (m, t_end * 1e6))
