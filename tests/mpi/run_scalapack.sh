#!/bin/sh
# A third party's numerical code under the shim: Debian's ScaLAPACK test
# programs built against MPICH (scalapack-mpi-test, built by Debian, not by
# us).  BLACS, ScaLAPACK's communication layer, broadcasts with MPI_Bcast
# and combines (sum, absolute max and min, of integers, reals and complex
# numbers; max / min of complex values through operators of its own) with
# MPI_Reduce on the communicators of its process grids; the factorisations
# and their residual checks then stand on those results.
#
# Run at n = 2 under LD_PRELOAD: the BLACS testers (C and Fortran: every
# broadcast and combine, 5 precisions, row / column / all scopes) and 7
# double-precision drivers (LU, QR, least squares, inverse, bidiagonal,
# Hessenberg and tridiagonal reduction), with auto and forced algorithms
# (not at n = 3: three ranks on these two cores spin, 30 s for one BLACS
# tester alone, minutes beside the other MPI tests of `make check -j2`).
# The testers read their inputs from the working directory: Debian's, with
# the process grids made 1 x n and n x 1 (the shipped ones need 4 - 8
# ranks).  A run passes if it exits 0, reports results and no failure, and
# the shim decided (a decision line under PMPI_LOGP_VERBOSE=1); a failure
# is run again without the shim and counted only where that passes.
# xdllt is left out: it hangs at n = 2 without the shim too (MPICH 4.0.2).
# SCALAPACK_TESTS=DIR: the programs of another build (scripts/test.sh runs
# Debian's Open MPI build, .../scalapack/openmpi-tests, with the library
# built for Open MPI).  Skipped (77) where the package is not installed.
: "${MPIEXEC:=mpiexec}"
b="$(cd "${top_builddir:-.}" && pwd)"
lib="$b/.libs/libpmpi-logp.so"
dir=${SCALAPACK_TESTS:-$(ls -d /usr/lib/*/scalapack/mpich-tests 2>/dev/null | head -1)}
data=${SCALAPACK_DATA:-/usr/share/scalapack}
[ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
[ -n "$dir" ] && [ -x "$dir/xCbtest" ] && [ -f "$data/LU.dat" ] ||
    { echo "SKIP: ScaLAPACK's MPICH test programs not installed (scalapack-mpi-test)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0; fail=0; skip=0

# grids n in out: a tester's input with its process grids made 1 x n and n x 1
# (the count of grids, then a line of row counts and one of column counts,
# in ScaLAPACK's drivers and in the BLACS testers alike; the readers take
# the leading numbers of a line)
grids() {
    awk -v n="$1" '/[Gg]rids/ && $1 ~ /^[0-9]+$/ { print "2\t\t\tnumber of process grids"; g = 1; next }
        g == 1 { print "1 " n "\t\t\tprocess rows"; g = 2; next }
        g == 2 { print n " 1\t\t\tprocess columns"; g = 0; next } { print }' "$2" >"$3"
}
# inputs for n ranks in $work/n<n>
inputs() {
    mkdir -p "$work/n$1"
    for f in LU QR LS INV BRD HRD TRD; do grids "$1" "$data/$f.dat" "$work/n$1/$f.dat"; done
    # the BLACS testers: broadcasts and combines only (SDRV and AUX never reach the shim)
    sed "s/^'T'\( *Run SDRV?\)/'F'\1/; s/^'T'\( *Run AUX?\)/'F'\1/" "$data/BLACS/bt.dat" >"$work/n$1/bt.dat"
    for f in bsbr comb; do grids "$1" "$data/BLACS/$f.dat" "$work/n$1/$f.dat"; done
}

# ok <out>: the tester's own verdict
ok() {
    case $t in
    x?btest) grep -q 'THERE WERE NO FAILURES' "$1" &&
        awk '/TESTS;/ { n++; for (i = 2; i <= NF; i++) if ($i ~ /^FAILED/) f += $(i - 1) } END { exit !(n > 0 && f == 0) }' "$1" ;;
    *) grep -Eq '^ *[1-9][0-9]* tests completed and passed residual checks' "$1" &&
        grep -Eq '^ *0 tests completed and failed residual checks' "$1" ;;
    esac
}
plain_ok() { # n: the test without the shim (asked only when it failed under it)
    (cd "$work/n$1" && timeout 120 $MPIEXEC -n "$1" "$dir/$t" >"$work/plain.out" 2>&1) && ok "$work/plain.out"
}
shim_ok() { # n bcast reduce: passes under the shim, which decided
    (cd "$work/n$1" && env LD_PRELOAD="$lib" PMPI_LOGP_VERBOSE=1 PMPI_LOGP_OVERSUBSCRIBED=model PMPI_LOGP_BCAST="$2" \
        PMPI_LOGP_REDUCE="$3" timeout 120 $MPIEXEC -n "$1" "$dir/$t" >"$work/out" 2>"$work/err") && ok "$work/out" &&
        grep -Eq "^pmpi-logp: .*: (bcast .* -> $2|reduce .* -> $3|(bcast|reduce) .* -> .*configured auto)" "$work/err"
}
run() { # n sets tests
    n=$1 sets=$2
    shift 2
    inputs "$n"
    for t in "$@"; do
        [ -x "$dir/$t" ] || { skip=$((skip + 1)); echo "skip: $t not in $dir"; continue; }
        for s in $sets; do
            bc=${s%%:*}; rd=${s##*:}
            if shim_ok "$n" "$bc" "$rd"; then
                pass=$((pass + 1))
            elif ! plain_ok "$n"; then
                skip=$((skip + 1)); echo "skip: $t fails at n=$n without the shim too"; break
            else
                fail=$((fail + 1)); echo "FAIL: $t, n=$n, bcast=$bc reduce=$rd"
                grep -E 'FAILED|failed|Error|error' "$work/out" | grep -v ' 0 FAILED' | head -5
                grep -v '^pmpi-logp: ' "$work/err" | tail -5
            fi
        done
    done
}
# auto; the LogP-optimal tree and seed 001's adaptive chain; the large-message
# schedules (two-tree, reduce-scatter-gather; scatter-allgather, pipelined chain)
run 2 "auto:auto logp-tree:chain-adaptive two-tree:reduce-scatter-gather scatter-allgather:pipeline" \
    xCbtest xFbtest xdlu xdqr xdls xdinv xdbrd xdhrd xdtrd
echo "scalapack: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
