#!/bin/sh
# PMPI_LOGP_REPRODUCIBLE=1 (issue 40): a floating-point reduce gives the
# same bits run after run and whatever the trials or the learned file
# would have chosen; every reduce algorithm the setting allows gives the
# same bits on every call and every run, and a dataflow reduce (arrival
# order) is not run.  The test can fail: two forced algorithms must give
# different bits on these data (else "same bits" would prove nothing).
: "${MPIEXEC:=mpiexec}"
b="$(cd "${top_builddir:-.}" && pwd)"
lib="$b/.libs/libpmpi-logp.so"
prog="$b/tests/mpi/test_repro"
cli="$b/pmpi-logp"
[ -f "$lib" ] && [ -x "$prog" ] || { echo "SKIP: $lib or $prog not built"; exit 77; }
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); echo "ok: $1"; }
ko() { fail=$((fail + 1)); echo "FAIL: $1"; }

# run N OUT CALLS [ENV...]: test_repro under the shim (3000 and 70000 doubles)
run() {
    n=$1; out=$2; calls=$3; shift 3
    env LD_PRELOAD="$lib" PMPI_LOGP_VERBOSE=1 "$@" timeout 300 $MPIEXEC -n "$n" "$prog" "$calls" >"$out" 2>&1
}
digest() { sed -n 's/^repro digest=\([0-9a-f]*\) stable=\([01]\)$/\1 \2/p' "$1"; }

n=4
# association matters on these data: two trees, two different sums
run $n "$tmp/binomial" 3 PMPI_LOGP_REDUCE=binomial
run $n "$tmp/flat" 3 PMPI_LOGP_REDUCE=flat
d1=$(digest "$tmp/binomial"); d2=$(digest "$tmp/flat")
if [ -n "$d1" ] && [ -n "$d2" ] && [ "${d1% *}" != "${d2% *}" ]; then
    ok "n=$n: binomial and flat sum the random doubles to different bits (the data can tell)"
else
    ko "n=$n: binomial '$d1' and flat '$d2' should differ"; cat "$tmp/binomial" "$tmp/flat" | tail -6
fi

# auto under the setting: trials that would go different ways (one
# algorithm or another made slow), refits, and a learned file that names
# another algorithm: the same bits, no trial, no learned file written
learned="$tmp/learned.conf"
printf '[size 4-4]\nrule = reduce 2048-1048575 commutative flat\n' > "$learned"
cp "$learned" "$tmp/learned.orig"
ref=
for env in "PMPI_LOGP_TEST_SLOW=binomial" "PMPI_LOGP_TEST_SLOW=logp-tree" \
    "PMPI_LOGP_CONFIRM=2 PMPI_LOGP_LEARN=$learned"; do
    # shellcheck disable=SC2086
    run $n "$tmp/auto" 40 PMPI_LOGP_REPRODUCIBLE=1 $env
    d=$(digest "$tmp/auto")
    if [ -z "$d" ] || [ "${d#* }" != 1 ] || grep -q 'trial' "$tmp/auto"; then
        ko "n=$n reproducible ($env): a digest, the same bits on every call, no trial"; tail -5 "$tmp/auto"
    elif [ -z "$ref" ]; then
        ref=${d% *}; ok "n=$n reproducible ($env): no trial, every call the same bits"
    elif [ "${d% *}" = "$ref" ]; then
        ok "n=$n reproducible ($env): the same bits as the first run"
    else
        ko "n=$n reproducible ($env): bits differ from the first run ($d vs $ref)"
    fi
done
cmp -s "$learned" "$tmp/learned.orig" && ok "n=$n reproducible: the learned file is neither used nor rewritten" ||
    ko "n=$n reproducible: the learned file was rewritten"

# every reduce algorithm, forced, under the setting: the same bits on
# every call and in a second run; chunked-rsg (dataflow) runs as
# reduce-scatter-gather
n=3
for a in $("$cli" algorithms | awk 'NR > 1 && $1 != "auto" && $2 ~ /(^|,)reduce(,|$)/ {print $1}'); do
    run $n "$tmp/f1" 6 PMPI_LOGP_REPRODUCIBLE=1 PMPI_LOGP_REDUCE="$a"
    run $n "$tmp/f2" 6 PMPI_LOGP_REPRODUCIBLE=1 PMPI_LOGP_REDUCE="$a"
    d1=$(digest "$tmp/f1"); d2=$(digest "$tmp/f2")
    if [ -n "$d1" ] && [ "$d1" = "$d2" ] && [ "${d1#* }" = 1 ]; then
        ok "n=$n reproducible, $a: the same bits on every call and in both runs"
    else
        ko "n=$n reproducible, $a: '$d1' then '$d2'"; tail -4 "$tmp/f1"
    fi
    eval "digest_$(echo "$a" | tr - _)=\${d1% *}"
done
# shellcheck disable=SC2154
if [ -n "$digest_chunked_rsg" ] && [ "$digest_chunked_rsg" = "$digest_reduce_scatter_gather" ]; then
    ok "n=$n reproducible: forced chunked-rsg runs as reduce-scatter-gather (same bits)"
else
    ko "n=$n reproducible: chunked-rsg $digest_chunked_rsg, reduce-scatter-gather $digest_reduce_scatter_gather"
fi
echo "repro: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
