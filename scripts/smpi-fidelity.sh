#!/bin/sh
# shellcheck disable=SC2154 # osim, lat, bw, drawn: set by smpi_next_platform (smpi-common.sh)
# The model's fidelity beyond the platform it was fitted to (issue 38):
# platforms drawn at random (fixed seeds), each a simulated cluster that
# follows its LogGP parameters (scripts/smpi-common.sh's generator), every
# registered algorithm forced in SMPI at each size, its simulated time
# against the model's prediction for that platform, under each network
# model.  Per (network, algorithm): cases, median and 90th percentile of
# |predicted / simulated - 1|, the signed median, the worst case.
#
#   sh scripts/smpi-fidelity.sh
#   env: SEED=1 PLATFORMS=8 PS="16 64 256" (one P drawn per platform)
#        SIZES=8,1024,65536,1048576 A2A_SIZES=8,1024,16384
#        NETWORKS="loggp shared" COLLS="bcast reduce alltoall allreduce"
#        OUT=docs/results/smpi-fidelity  ITERS=1
#        ORACLE=0 (1: SMPI's named algorithms too, each forced once per
#        platform, collective and size: $OUT/oracle.csv, and auto against
#        the fastest of them and ours in the summary; LIMIT=600 host
#        seconds per run, a slower one is skipped)
# Draws: L 0.5 - 20 us, o and g 0.1 - 5 us, G 0.02 - 2 ns/B (log-uniform),
# gamma 0 - 1 ns/B (uniform); a draw whose g cannot be emulated (SMPI has
# no gap: L - 2(g - o) < 0) is drawn again.  The model is given the
# platform's own parameters (smpi-common.sh's model.conf: with g > o the
# simulated overheads are g).
# Writes $OUT/platforms.txt, $OUT/results.csv
# (platform,network,P,coll,bytes,algorithm,simulated_us,predicted_us),
# $OUT/auto.csv (the same with native's and auto's rows: auto:X is the
# model's pick X, its time from the same run) and $OUT/summary.md.  SUMMARY_ONLY=1: the summary anew from results.csv.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/smpi-common.sh"
SEED=${SEED:-1}
PLATFORMS=${PLATFORMS:-8}
PS=${PS:-16 64 256}
SIZES=${SIZES:-8,1024,65536,1048576}
A2A_SIZES=${A2A_SIZES:-8,1024,16384}
NETWORKS=${NETWORKS:-loggp shared}
COLLS=${COLLS:-bcast reduce alltoall allreduce}
OUT=${OUT:-$top/docs/results/smpi-fidelity}
ORACLE=${ORACLE:-0}
LIMIT=${LIMIT:-600}
ITERS=${ITERS:-1}
csv="$OUT/results.csv"
mkdir -p "$OUT"
if [ "${SUMMARY_ONLY:-0}" != 1 ]; then
    smpi_bench_work "$top"
    echo "platform,network,P,coll,bytes,algorithm,simulated_us,predicted_us" >"$csv"
    echo "platform,network,P,coll,bytes,algorithm,simulated_us,predicted_us" >"$OUT/auto.csv"
    : >"$OUT/platforms.txt"
    if [ "$ORACLE" = 1 ]; then echo "platform,P,coll,bytes,algorithm,simulated_us" >"$OUT/oracle.csv"; else rm -f "$OUT/oracle.csv"; fi
    i=0
    while [ "$i" -lt "$PLATFORMS" ]; do
        smpi_next_platform "$top" "$SEED" "$PS" "$work" # one platform: its LogGP parameters and P
        i=$((i + 1))
        echo "platform $i (draw $draw): P=$P $drawn-> simulated lat=$lat bw=$bw overhead=${osim}us" |
            tee -a "$OUT/platforms.txt"
        for net in $NETWORKS; do
            for coll in $COLLS; do
                sizes=$SIZES
                [ "$coll" = alltoall ] && sizes=$A2A_SIZES
                # shellcheck disable=SC2086
                (cd "$work" && smpirun -np "$P" -platform platform.xml $FLAGS --cfg=smpi/coll-selector:mpich ./bench --tuning model.conf \
                    --iters "$ITERS" --csv --network "$net" --coll "$coll" --sizes "$sizes" 2>>"$work/smpi.log") |
                    awk -F, -v i="$i" -v net="$net" -v raw="$OUT/auto.csv" 'NR > 1 { print i "," net "," $0 >>raw }
                        NR > 1 && $4 != "native" && $4 !~ /^auto/ && $6 > 0 { print i "," net "," $1 "," $2 "," $3 "," $4 "," $5 "," $6 }' >>"$csv"
            done
        done
        # SMPI's named algorithms on this platform (the network model is the
        # model's, not the platform's: once per platform)
        for coll in $COLLS; do
            [ "$ORACLE" = 1 ] || break
            sizes=$SIZES
            [ "$coll" = alltoall ] && sizes=$A2A_SIZES
            for a in $(smpi_named_algorithms "$coll" "$P"); do
                # shellcheck disable=SC2086
                rows=$(cd "$work" && timeout "$LIMIT" smpirun -np "$P" -platform platform.xml $FLAGS --cfg=smpi/$coll:$a ./bench \
                    --tuning model.conf --iters "$ITERS" --csv --native-only --coll "$coll" --sizes "$sizes" 2>>"$work/smpi.log" |
                    awk -F, -v i="$i" -v a="$a" 'NR > 1 && $4 == "native" && $5 > 0 { print i "," $1 "," $2 "," $3 ",smpi:" a "," $5 }') || :
                if [ -n "$rows" ]; then echo "$rows" >>"$OUT/oracle.csv"; else echo "platform $i: smpi/$coll:$a gave no time (failed or over ${LIMIT}s): skipped"; fi
            done
        done
    done
fi

# The summary: per network and algorithm, the errors of predicted / simulated - 1.
awk -F, 'NR > 1 { k = $2 SUBSEP $6; e = $8 / $7 - 1; n[k]++; err[k, n[k]] = e
        if (!(k in worst) || (e < 0 ? -e : e) > (worst[k] < 0 ? -worst[k] : worst[k])) { worst[k] = e; wcase[k] = "platform " $1 ", P=" $3 ", " $4 " " $5 " B" }
        if (!($2 in nets)) { nets[$2] = 1; order[++no] = $2 } if (!($6 in seen)) { seen[$6] = 1; algs[++na] = $6 } }
    function sortabs(k, m,   i, j, t) { for (i = 1; i <= m; i++) { t = err[k, i]; a[i] = t < 0 ? -t : t; s[i] = t }
        for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        for (i = 2; i <= m; i++) { t = s[i]; for (j = i - 1; j >= 1 && s[j] > t; j--) s[j + 1] = s[j]; s[j + 1] = t } }
    END {
        print "# Model fidelity on random platforms (scripts/smpi-fidelity.sh)\n"
        print "Error = predicted / simulated - 1, over every drawn platform and size.\n"
        for (x = 1; x <= no; x++) {
            net = order[x]
            print "## network = " net "\n"
            print "| algorithm | cases | median abs error | 90th pct abs error | median signed | worst (case) |"
            print "|---|---|---|---|---|---|"
            for (y = 1; y <= na; y++) {
                k = net SUBSEP algs[y]; m = n[k]; if (!m) continue
                sortabs(k, m); i90 = int(0.9 * m); if (i90 < 0.9 * m) i90++; p90 = a[i90]
                med = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
                sm = m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
                printf "| %s | %d | %.1f%% | %.1f%% | %+.1f%% | %+.1f%% (%s) |\n", algs[y], m, 100 * med, 100 * p90, 100 * sm, 100 * worst[k], wcase[k]
            }
            print ""
        }
    }' "$csv" >"$OUT/summary.md"
# auto's pick (the model's, without trials) against the fastest of every
# algorithm run, ours and the library's (SMPI's default), per case
[ -f "$OUT/auto.csv" ] && awk -F, 'NR > 1 { k = $1 SUBSEP $2 SUBSEP $4 SUBSEP $5; P[k] = $3
        if ($6 ~ /^auto:/) { auto[k] = $7; pick[k] = substr($6, 6) }
        else if ($7 > 0 && (!(k in best) || $7 < best[k])) { best[k] = $7; who[k] = $6 } }
    END {
        print "\n## auto against the fastest algorithm run (ours and native), per case\n"
        print "| network | cases | within 1.10 | within 1.25 | worst (case) |"
        print "|---|---|---|---|---|"
        for (k in auto) if (k in best) { split(k, f, SUBSEP); r = auto[k] / best[k]; n[f[2]]++
            a[f[2]] += r <= 1.10; b[f[2]] += r <= 1.25
            if (r > w[f[2]]) { w[f[2]] = r; wc[f[2]] = sprintf("platform %s, P=%s, %s %s B: %s against %s", f[1], P[k], f[3], f[4], pick[k], who[k]) } }
        for (net in n) printf "| %s | %d | %d | %d | %.3f (%s) |\n", net, n[net], a[net], b[net], w[net], wc[net]
    }' "$OUT/auto.csv" >>"$OUT/summary.md"
# the same against SMPI's named algorithms as well (ORACLE=1)
[ -f "$OUT/oracle.csv" ] && [ -f "$OUT/auto.csv" ] && awk -F, 'FNR == 1 { file++; next }
    file == 1 { k = $1 SUBSEP $3 SUBSEP $4; if (!(k in sb) || $6 < sb[k]) { sb[k] = $6; sw[k] = $5 }; next }
    { k = $1 SUBSEP $2 SUBSEP $4 SUBSEP $5; P[k] = $3; o[k] = $1 SUBSEP $4 SUBSEP $5
        if ($6 ~ /^auto:/) { auto[k] = $7; pick[k] = substr($6, 6) }
        else if ($7 > 0 && (!(k in best) || $7 < best[k])) { best[k] = $7; who[k] = $6 } }
    END {
        print "\n## auto against the fastest of ours, native and SMPI'"'"'s named algorithms, per case\n"
        print "| network | cases | within 1.10 | within 1.25 | worst (case) |"
        print "|---|---|---|---|---|"
        for (k in auto) if (k in best && o[k] in sb) { split(k, f, SUBSEP); b = best[k]; w0 = who[k]
            if (sb[o[k]] < b) { b = sb[o[k]]; w0 = sw[o[k]] }
            r = auto[k] / b; n[f[2]]++; a[f[2]] += r <= 1.10; c[f[2]] += r <= 1.25
            if (r > w[f[2]]) { w[f[2]] = r; wc[f[2]] = sprintf("platform %s, P=%s, %s %s B: %s against %s", f[1], P[k], f[3], f[4], pick[k], w0) } }
        for (net in n) printf "| %s | %d | %d | %d | %.3f (%s) |\n", net, n[net], a[net], c[net], w[net], wc[net]
    }' "$OUT/oracle.csv" "$OUT/auto.csv" >>"$OUT/summary.md"
echo "smpi-fidelity: wrote $csv and $OUT/summary.md"
