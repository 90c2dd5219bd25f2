#!/bin/sh
# Auto as an application meets it: every cell a fresh process that calls
# one collective at one size (pmpi-logp-fresh), under the shim with auto,
# with native (the MPI library alone) and with every forced algorithm;
# configurations alternated within each repetition, the median over REPS
# runs of each run's median of calls 1-30 (first) and calls 101-200
# (steady).  Prints one table row per (collective, size):
#   first  auto / native        (the bar: <= 1.10 x native + 0.2 us)
#   steady auto / fastest       (the bar: <= 1.10 x the fastest of native
#                                and every forced algorithm + 0.1 us)
#   sh scripts/fresh-grid.sh BUILD_DIR > table.txt
# The noise column: native's own runs of the cell, largest / smallest
# (first 30 or steady, the wider); the last line counts the failures by
# more than that as well (a failure within it is not evidence).
#   env: MPI=mpich|openmpi  N=2  REPS=3  CALLS=200  MAXSEC=20
#        COLLS="bcast reduce alltoall" (or allreduce)  SIZES="8 1024 16384 65536 1048576 4194304"
#        LEARN=FILE   auto reads FILE (a learned file of an earlier run) and
#                     does not write it: "second run" mode
#        RAW=FILE     keep every run's line (default: a temporary file)
#        TABLE_ONLY=1 no runs: the table from RAW's lines (an earlier run's)
#        SECOND=1     after each auto run, a second auto run that reads the
#                     learned file the first one wrote (config "second"):
#                     its first 30 calls against the steady fastest (the
#                     bar: <= 1.10 x + 0.2 us) and against the fastest
#                     first 30 calls of native and every forced algorithm
#                     (what any choice costs cold)
#        UNWARMED=1   also auto with PMPI_LOGP_WARM=0 (config "unwarmed":
#                     no warming of the eager path before trials), its
#                     ratios beside auto's, alternated with the others
# About 10 minutes per MPI library at the defaults on 2 cores.  Run it
# alone on the machine (flock /tmp/mpi.lock).
#   MPI=smpi     SimGrid SMPI (deterministic: REPS=1 is enough), N ranks
#                of the project's simulated cluster (scripts/smpi.sh's
#                platform from tuning/default.conf), native = SMPI's mpich
#                selector; auto reads WRONG (default: the file with L x 4,
#                G / 4 of scripts/smpi-confirm.sh), native and the forced
#                algorithms FORCED (default: WRONG, the algorithms as the
#                user's file builds them; FORCED=right: the project's file,
#                their shapes at their best)
set -u
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
b=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
MPI=${MPI:-mpich}; N=${N:-2}; REPS=${REPS:-3}; CALLS=${CALLS:-200}; MAXSEC=${MAXSEC:-20}
COLLS=${COLLS:-"bcast reduce alltoall"}
SIZES=${SIZES:-"8 1024 16384 65536 1048576 4194304"}
raw=${RAW:-$(mktemp)}
[ -n "${RAW:-}" ] || trap 'rm -f "$raw"' EXIT
[ "${TABLE_ONLY:-0}" = 1 ] && { [ -n "${RAW:-}" ] || { echo "TABLE_ONLY=1 needs RAW=FILE" >&2; exit 2; }; REPS=0; }
[ "$REPS" = 0 ] || : > "$raw"
# run ENV=VALUE... -- PROGRAM ARGS: one job, the shim preloaded, only the given variables set
run() {
    xs=; es=
    while [ "$1" != -- ]; do
        case "$MPI" in mpich) es="$es -env ${1%%=*} ${1#*=}" ;; openmpi) xs="$xs -x $1" ;; smpi) xs="$xs $1" ;; esac
        shift
    done
    shift
    case "$MPI" in
    mpich) mpiexec.mpich -n "$N" -env LD_PRELOAD "$b/.libs/libpmpi-logp.so" $es "$@" ;;
    openmpi) mpirun.openmpi --oversubscribe -n "$N" -x LD_PRELOAD="$b/.libs/libpmpi-logp-openmpi.so.0" $xs "$@" ;;
    smpi) # the shim is linked into $smpi_fresh; the program's own path is replaced by it
        shift
        # shellcheck disable=SC2086
        env $xs smpirun -np "$N" -platform "$work/platform.xml" $FLAGS --cfg=smpi/coll-selector:mpich "$smpi_fresh" \
            "$@" 2>>"$work/smpi.log" ;;
    esac
}
case "$MPI" in
mpich | openmpi) ;;
smpi)
    . "$top/scripts/smpi-common.sh"
    smpi_need
    work=$(mktemp -d)
    trap 'rm -rf "$work"; [ -n "${RAW:-}" ] || rm -f "$raw"' EXIT
    smpi_platform "$top" "$top/tuning/default.conf" "$work" || exit 1
    FLAGS=$(smpi_flags "$osim")
    right=$top/tuning/default.conf
    WRONG=${WRONG:-$work/wrong.conf}
    [ -f "$WRONG" ] || smpi_wrong_conf "$WRONG"
    FORCED=${FORCED:-$WRONG}
    [ "$FORCED" = right ] && FORCED=$right
    smpi_fresh=$work/fresh
    smpi_build_shim "$top" src/tools/pmpi-logp-fresh.c "$smpi_fresh" || exit 1
    ;;
*) echo "MPI=mpich, openmpi or smpi" >&2; exit 2 ;;
esac
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset PMPI_LOGP_VERBOSE PMPI_LOGP_REPORT PMPI_LOGP_BCAST PMPI_LOGP_REDUCE PMPI_LOGP_ALLTOALL PMPI_LOGP_ALLREDUCE PMPI_LOGP_LEARN

# the configurations of a collective: auto, native, then the registry's algorithms for it
configs() {
    echo auto
    [ "${SECOND:-0}" = 1 ] && echo second
    [ "${UNWARMED:-0}" = 1 ] && echo unwarmed
    echo native
    "$b/pmpi-logp" algorithms "$1"
}

for rep in $(seq "$REPS"); do
    for c in $COLLS; do
        var=PMPI_LOGP_$(echo "$c" | tr a-z A-Z)
        for m in $SIZES; do
            for cfg in $(configs "$c"); do
                learn="" algo=$cfg warm=
                [ "$cfg" = unwarmed ] && algo=auto warm=PMPI_LOGP_WARM=0
                if [ "$cfg" = auto ] && [ -n "${LEARN:-}" ]; then # read-only: a copy per run
                    learn=$(mktemp); cp "$LEARN" "$learn"
                elif [ "$cfg" = auto ] && [ "${SECOND:-0}" = 1 ]; then # the first run writes it
                    learned=$(mktemp); rm -f "$learned"; learn=$learned
                elif [ "$cfg" = second ]; then # reads what the first run learned, a copy
                    algo=auto learn=$(mktemp)
                    if [ -f "$learned" ]; then cp "$learned" "$learn"; else rm -f "$learn"; fi
                fi
                tun= # SMPI: auto reads the wrong file, the others FORCED
                [ "$MPI" = smpi ] && { tun=PMPI_LOGP_TUNING=$FORCED; [ "$algo" = auto ] && tun=PMPI_LOGP_TUNING=$WRONG; }
                line=$(run "$var=$algo" ${learn:+PMPI_LOGP_LEARN=$learn} $tun $warm -- "$b/pmpi-logp-fresh" --coll "$c" \
                    --bytes "$m" --calls "$CALLS" --max-seconds "$MAXSEC" 2>/dev/null | grep '^fresh ')
                [ -n "$learn" ] && [ "$learn" != "${learned:-}" ] && rm -f "$learn"
                [ "$cfg" = second ] && rm -f "$learned"
                echo "rep=$rep cfg=$cfg ${line:-fresh coll=$c bytes=$m failed}" >> "$raw"
            done
        done
    done
done

# The table: per (collective, size) the medians over the runs.
awk '
function val(s, k,   i, n, f) { n = split(s, f, " "); for (i = 1; i <= n; i++) if (index(f[i], k "=") == 1) return substr(f[i], length(k) + 2); return "" }
function med(key,   n, i, j, t, v) { n = cnt[key]; if (!n) return -1
    for (i = 1; i <= n; i++) v[i] = x[key, i]
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
function spread(key,   n, i, lo, hi) { n = cnt[key]; if (n < 2) return 1
    lo = hi = x[key, 1]; for (i = 2; i <= n; i++) { lo = x[key, i] < lo ? x[key, i] : lo; hi = x[key, i] > hi ? x[key, i] : hi }
    return lo > 0 ? hi / lo : 1 }
# the references: native and the forced algorithms, not auto'"'"'s runs
function reference(cfg) { return cfg != "auto" && cfg != "second" && cfg != "unwarmed" }
# the fastest reference of cell (c, m) in window w ("f" or "s"), -1 if none; its name in who
function fastest(c, m, w,   j, n, l, t, b) { b = -1; who = "-"; n = split(cfgs[c, m], l, " ")
    for (j = 1; j <= n; j++) if (reference(l[j])) { t = med(c SUBSEP m SUBSEP l[j] SUBSEP w); if (t > 0 && (b < 0 || t < b)) { b = t; who = l[j] } }
    return b }
# the bars: first 30 calls <= 1.10 x ref + 0.2 us, steady <= 1.10 x ref + 0.1 us
function first_ok(t, ref) { return t >= 0 && ref > 0 && t <= 1.10 * ref + 0.2 }
function steady_ok(t, ref) { return t >= 0 && ref > 0 && t <= 1.10 * ref + 0.1 }
{ cfg = val($0, "cfg"); c = val($0, "coll"); m = val($0, "bytes"); if (cfg == "second") second = 1; if (cfg == "unwarmed") unwarmed = 1
  if (!((c, m) in seen)) { seen[c, m] = 1; order[++no] = c SUBSEP m }
  if (!((c, m, cfg) in cseen)) { cseen[c, m, cfg] = 1; cfgs[c, m] = cfgs[c, m] " " cfg }
  f = val($0, "first30_us"); s = val($0, "steady101_200_us")
  if (f != "" && f != "-") { k = c SUBSEP m SUBSEP cfg SUBSEP "f"; x[k, ++cnt[k]] = f + 0 }
  if (s != "" && s != "-") { k = c SUBSEP m SUBSEP cfg SUBSEP "s"; x[k, ++cnt[k]] = s + 0 } }
END {
  printf "%-9s %9s | %9s %9s %6s %4s | %9s %9s %-22s %6s %4s %6s", "coll", "bytes", "auto_1-30", "native", "ratio", "ok", "auto_101+", "fastest", "(which)", "ratio", "ok", "noise"
  if (second) printf " | %9s %6s %4s %9s %6s", "2nd_1-30", "ratio", "ok", "cold_best", "ratio"
  if (unwarmed) printf " | %9s %6s %9s %6s", "unw_1-30", "ratio", "unw_101+", "ratio"
  printf "\n"
  bad = 0
  for (i = 1; i <= no; i++) {
    split(order[i], cm, SUBSEP); c = cm[1]; m = cm[2]
    af = med(c SUBSEP m SUBSEP "auto" SUBSEP "f"); nf = med(c SUBSEP m SUBSEP "native" SUBSEP "f")
    as = med(c SUBSEP m SUBSEP "auto" SUBSEP "s"); best = fastest(c, m, "s")
    ok1 = first_ok(af, nf) ? "yes" : "NO"
    ok2 = steady_ok(as, best) ? "yes" : "NO"
    bad += (ok1 == "NO") + (ok2 == "NO")
    # noise: how far native'"'"'s own runs of this cell are apart (largest / smallest,
    # first 30 or steady, whichever is wider); a failure by less is not evidence
    sn = spread(c SUBSEP m SUBSEP "native" SUBSEP "s"); fn = spread(c SUBSEP m SUBSEP "native" SUBSEP "f"); sn = fn > sn ? fn : sn
    beyond += (ok1 == "NO" && af > (1.10 * nf + 0.2) * sn) + (ok2 == "NO" && as > (1.10 * best + 0.1) * sn)
    printf "%-9s %9d | %9.2f %9.2f %6.2f %4s | %9.2f %9.2f %-22s %6.2f %4s %6.2f", c, m, af, nf, (nf > 0 ? af / nf : 0), ok1, as, best, "(" who ")", (best > 0 ? as / best : 0), ok2, sn
    if (second) {
      sf = med(c SUBSEP m SUBSEP "second" SUBSEP "f")
      ok3 = first_ok(sf, best) ? "yes" : "NO"
      bad2 += ok3 == "NO"
      cold = fastest(c, m, "f")
      printf " | %9.2f %6.2f %4s %9.2f %6.2f", sf, (best > 0 ? sf / best : 0), ok3, cold, (cold > 0 ? sf / cold : 0)
    }
    if (unwarmed) {
      uf = med(c SUBSEP m SUBSEP "unwarmed" SUBSEP "f"); us = med(c SUBSEP m SUBSEP "unwarmed" SUBSEP "s")
      ubad += !first_ok(uf, nf) + !steady_ok(us, best)
      printf " | %9.2f %6.2f %9.2f %6.2f", uf, (nf > 0 ? uf / nf : 0), us, (best > 0 ? us / best : 0)
    }
    printf "\n"
  }
  printf "cells failing a bar: %d (by more than the noise: %d)\n", bad, beyond
  if (second) printf "second runs failing their bar: %d\n", bad2
  if (unwarmed) printf "cells failing a bar unwarmed (PMPI_LOGP_WARM=0): %d\n", ubad
}' "$raw"
