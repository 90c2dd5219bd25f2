#!/bin/sh
# Errors, resources and files (issue 16): every case of test_errors under
# the MPI library alone and under the shim.  The shim must report what the
# library reports (the same error class on every rank), never abort or hang
# where the library does not (every run under a timeout), hand the
# application's communicator to its error handler, live with 2,000
# communicators and bounded memory, work with MPI-4 Sessions, write a full
# report only to a regular file, and say which rank's configuration is wrong.
: "${MPIEXEC:=mpiexec}"
b="$(cd "${top_builddir:-.}" && pwd)"
lib="$b/.libs/libpmpi-logp.so"
prog="$b/tests/mpi/test_errors"
[ -f "$lib" ] && [ -x "$prog" ] || { echo "SKIP: $lib or $prog not built"; exit 77; }
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); echo "ok: $1"; }
ko() { fail=$((fail + 1)); echo "FAIL: $1"; }

# same CASE N [ENV...]: the library alone and under the shim print the same
# "CASE:" line, and the shim ends as the library does (no abort, no hang)
same() {
    c=$1; n=$2; shift 2
    timeout 120 $MPIEXEC -n "$n" "$prog" "$c" >"$tmp/native" 2>"$tmp/native.err"; rn=$?
    env LD_PRELOAD="$lib" "$@" timeout 120 $MPIEXEC -n "$n" "$prog" "$c" >"$tmp/shim" 2>"$tmp/shim.err"; rs=$?
    want=$(grep "^$c:" "$tmp/native"); got=$(grep "^$c:" "$tmp/shim")
    if [ -n "$want" ] && [ "$want" = "$got" ] && { [ $rn -ne 0 ] || [ $rs -eq 0 ]; } && [ $rs -ne 124 ]; then
        ok "$c n=$n: $got"
    else
        ko "$c n=$n: library '$want' (exit $rn), shim '$got' (exit $rs)"; tail -5 "$tmp/shim.err"
    fi
}

same bcast-uncommitted 4 PMPI_LOGP_BCAST=flat
same bcast-uncommitted-flat 3 PMPI_LOGP_BCAST=pipeline
same bcast-null 4 PMPI_LOGP_BCAST=flat
same reduce-null-root 3 PMPI_LOGP_REDUCE=binomial
same alltoall-null 3 PMPI_LOGP_ALLTOALL=ring
same alltoallv-type-null 2
same alltoallv-type-null 3 PMPI_LOGP_ALLTOALLV=ring
same alltoallv-negative 3
same reduce-byte-sum 3 PMPI_LOGP_REDUCE=binomial
same inplace-recvbuf 3 PMPI_LOGP_REDUCE=binomial PMPI_LOGP_ALLTOALL=ring
same null-derived 3 PMPI_LOGP_REDUCE=binomial PMPI_LOGP_BCAST=binomial PMPI_LOGP_ALLTOALL=ring
same reduce-unlisted-type 3 PMPI_LOGP_REDUCE=binomial
same attr-copy 2 PMPI_LOGP_BCAST=binomial
same truncate-late-handler 2 PMPI_LOGP_BCAST=binomial
same reduce-alias-one 4 PMPI_LOGP_REDUCE=binomial PMPI_LOGP_ALLTOALL=ring
same reduce-alias-one 3
same reduce-alias-makeup 3 PMPI_LOGP_REDUCE=chain
same reduce-alias-makeup 4
same handler-comm 2 PMPI_LOGP_BCAST=binomial
grep -q "handler called yes, with the application's communicator" "$tmp/shim" && ok "handler sees the application's communicator" ||
    ko "handler sees the application's communicator"
same finalize-from-handler 2 PMPI_LOGP_BCAST=binomial
# 2,000 live communicators, our algorithm forced on each (MPICH has about
# 2,000 context ids: communicators of one group share one private
# communicator, each with its own tag)
same many-comms 2 PMPI_LOGP_BCAST=binomial
# one rank's send size differs from the receive size (MPICH's
# errors/coll/alltoalllength): the others ran our schedule while that rank
# went to the library alone, and waited for it forever.  Now it runs the
# schedule with empty messages: every rank reports an error (the library
# alone: a truncation everywhere; here the others see short messages).
for aa in ring linear butterfly auto node-aggregate; do
    set --
    [ $aa = node-aggregate ] && set -- PMPI_LOGP_RANKS_PER_NODE=2
    env LD_PRELOAD="$lib" PMPI_LOGP_ALLTOALL=$aa "$@" timeout 120 $MPIEXEC -n 4 "$prog" alltoall-length \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    line=$(grep '^alltoall-length: MPI' "$tmp/out")
    if [ $rc -eq 0 ] && [ -n "$line" ] && ! echo "$line" | grep -q MPI_SUCCESS &&
        grep -q '^alltoall-length: then a bcast correct' "$tmp/out"; then
        ok "alltoall-length $aa n=4: $line"
    else
        ko "alltoall-length $aa n=4 (exit $rc): $line"; tail -3 "$tmp/err"
    fi
done
for n in 1 2 3 4; do
    env LD_PRELOAD="$lib" PMPI_LOGP_BCAST=binomial PMPI_LOGP_REDUCE=chain PMPI_LOGP_ALLTOALL=ring timeout 120 \
        $MPIEXEC -n $n "$prog" sessions >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 0 ] && grep -q "sessions: results correct" "$tmp/out" && ok "MPI-4 Sessions n=$n" ||
        { ko "MPI-4 Sessions n=$n (exit $rc)"; tail -3 "$tmp/err"; }
done
# memory: 40 live communicators with 8 MiB collectives on each stay within
# 1.5x of the library alone plus the shim's staging of an 8 MiB reduce (16 MiB)
timeout 300 $MPIEXEC -n 2 "$prog" rss >"$tmp/native" 2>&1
env LD_PRELOAD="$lib" PMPI_LOGP_BCAST=binomial PMPI_LOGP_REDUCE=binomial timeout 300 $MPIEXEC -n 2 "$prog" rss \
    >"$tmp/shim" 2>&1
kn=$(sed -n 's/^rss: max RSS \([0-9]*\) KB/\1/p' "$tmp/native"); ks=$(sed -n 's/^rss: max RSS \([0-9]*\) KB/\1/p' "$tmp/shim")
if [ -n "$kn" ] && [ -n "$ks" ] && [ "$ks" -le $((kn * 3 / 2 + 16384)) ]; then ok "memory: $ks KB under the shim, $kn KB alone"
else ko "memory: $ks KB under the shim, $kn KB alone"; fi
# the report: every decision (300), one block per process, written once
env LD_PRELOAD="$lib" PMPI_LOGP_REPORT="$tmp/report.txt" timeout 300 $MPIEXEC -n 2 "$prog" decisions >/dev/null 2>&1
nd=$(grep -c '^  \(bcast\|reduce\) ' "$tmp/report.txt" 2>/dev/null)
[ "$nd" = 300 ] && [ "$(grep -c '^==== pmpi-logp run report' "$tmp/report.txt")" = 1 ] &&
    ok "report: all 300 decisions, one header" || ko "report: $nd decisions"
echo precious >"$tmp/target"; ln -s "$tmp/target" "$tmp/link"
env LD_PRELOAD="$lib" PMPI_LOGP_REPORT="$tmp/link" timeout 120 $MPIEXEC -n 2 "$prog" plain >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(cat "$tmp/target")" = precious ] && grep -q "symbolic link (refused)" "$tmp/err" &&
    ok "report: a symbolic link is refused" || ko "report: a symbolic link is refused"
mkfifo "$tmp/fifo"
env LD_PRELOAD="$lib" PMPI_LOGP_REPORT="$tmp/fifo" timeout 120 $MPIEXEC -n 2 "$prog" plain >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "results correct" "$tmp/out" && ok "report: a FIFO does not hang the run" ||
    ko "report: a FIFO does not hang the run (exit $rc)"
env LD_PRELOAD="$lib" PMPI_LOGP_TUNING="$tmp/fifo" timeout 120 $MPIEXEC -n 2 "$prog" plain >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "results correct" "$tmp/out" && grep -q "not a regular file" "$tmp/err" &&
    ok "tuning: a FIFO is refused, no hang" || { ko "tuning: a FIFO is refused, no hang (exit $rc)"; tail -3 "$tmp/err"; }
# a bad setting on rank 1 only: reported with the rank in front, and under
# PMPI_LOGP_STRICT=1 the job stops with that reason
timeout 120 $MPIEXEC -n 1 env LD_PRELOAD="$lib" "$prog" plain : -n 1 env LD_PRELOAD="$lib" PMPI_LOGP_BCAST=bogus \
    "$prog" plain >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "rank 1 (.*): PMPI_LOGP_BCAST=bogus" "$tmp/err" && ok "a bad setting on rank 1 is reported" ||
    { ko "a bad setting on rank 1 is reported (exit $rc)"; cat "$tmp/err"; }
timeout 120 $MPIEXEC -n 1 env LD_PRELOAD="$lib" PMPI_LOGP_STRICT=1 "$prog" plain : -n 1 env LD_PRELOAD="$lib" \
    PMPI_LOGP_STRICT=1 PMPI_LOGP_BCAST=bogus "$prog" plain >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "rank 1 (.*): PMPI_LOGP_BCAST=bogus" "$tmp/err" &&
    ok "strict mode stops with rank 1's reason" || { ko "strict mode stops with rank 1's reason (exit $rc)"; cat "$tmp/err"; }
# out of memory on one rank (test hook PMPI_LOGP_TEST_NOMEM=F: the shim's
# staging memory never comes there): every call ends on every rank (a
# rank that cannot stage drains the schedule's messages, and its peers
# see the empty ones), no rank reports success with wrong data, and the
# next call is whole.  Every algorithm that stages is forced in some run.
hetero="${top_srcdir:-.}/tests/data/hetero.conf"
nomem() {
    n=$1; f=$2; bc=$3; rd=$4; aa=$5; ar=$6; shift 6
    algs="$bc $rd $aa $ar"
    env LD_PRELOAD="$lib" PMPI_LOGP_TEST_NOMEM=$f PMPI_LOGP_BCAST=$bc PMPI_LOGP_REDUCE=$rd PMPI_LOGP_ALLTOALL=$aa \
        PMPI_LOGP_ALLREDUCE=$ar \
        PMPI_LOGP_VERBOSE=1 "$@" timeout 120 $MPIEXEC -n "$n" "$prog" nomem >"$tmp/out" 2>"$tmp/err"
    rc=$?
    line=$(grep '^nomem:' "$tmp/out")
    # staging: the failing rank reports; a decision, its schedule or a
    # trial's (auto): the trial's first call tells every rank, which all
    # run the same instead, so every call succeeds
    want=' [1-9][0-9]* errors on the failing rank, .* 0 successes with wrong data, 0 calls after them wrong$'
    seen=1
    case $f in *:*)
        want=' 0 errors on the failing rank, 0 on others, 0 successes with wrong data, 0 calls after them wrong$'
        grep -q "the ranks' decisions differ (a rank out of memory)" "$tmp/err" || seen=0 ;;
    esac
    if [ $rc -eq 0 ] && [ $seen = 1 ] && echo "$line" | grep -q "$want"; then
        ok "rank $f out of memory, $algs, n=$n: $line"
    else
        ko "rank $f out of memory, $algs, n=$n (exit $rc): $line"; tail -3 "$tmp/err"
    fi
}
nomem 3 1 scatter-allgather binomial ring recursive-multiplying
nomem 4 0 pipeline pipeline butterfly recursive-multiplying
nomem 3 2 binary-pipeline logp-tree linear recursive-doubling
nomem 3 0 binomial reduce-scatter-gather butterfly reduce-scatter-allgather
nomem 5 1 binomial chunked-rsg ring ring
nomem 5 2 logp-tree chain-adaptive ring recursive-multiplying
nomem 3 1 flat chain-opt linear binomial
nomem 4 2 binomial binomial ring dissemination
nomem 4 0 two-tree flat ring logp-tree
nomem 3 2 auto binary-pipeline auto auto
nomem 4 3 auto chain node-aggregate auto PMPI_LOGP_RANKS_PER_NODE=2 PMPI_LOGP_TUNING="$hetero"
nomem 4 1 two-level two-level node-aggregate auto PMPI_LOGP_RANKS_PER_NODE=2 PMPI_LOGP_TUNING="$hetero"
nomem 5 3 hetero-tree hetero-tree auto auto PMPI_LOGP_RANKS_PER_NODE=2 PMPI_LOGP_TUNING="$hetero"
# auto out of memory for a decision, its schedule or a trial's candidates
# on one rank (hung before: that rank ran another algorithm alone)
nomem 3 1:decision auto auto auto auto
nomem 3 2:schedule auto auto auto auto
nomem 4 0:schedule auto auto auto auto PMPI_LOGP_RANKS_PER_NODE=2 PMPI_LOGP_TUNING="$hetero"
nomem 3 1:trial auto auto auto auto
nomem 5 4:trial auto auto auto auto
echo "errors: $pass passed, $fail failed"
[ $fail -eq 0 ]
