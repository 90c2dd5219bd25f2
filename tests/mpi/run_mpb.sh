#!/bin/sh
# A real application under the shim built for Open MPI: MIT Photonic Bands
# (Debian's mpb-mpi, built by Debian against Open MPI), the band structure
# of a simple cubic lattice of dielectric spheres (3D, 6 bands, 5 k-points)
# at n = 2.  Its eigensolver's inner products and norms are MPI_Allreduce
# calls (4 B - 1 KiB) and its set-up broadcasts (MPI_Bcast); every
# frequency stands on them.
#
# Each run must exit 0 and print every band's frequency at every k-point
# within 1e-4 (relative) of the run without the shim, and the shim must
# have decided (a decision line under PMPI_LOGP_VERBOSE=1).  The fields
# start from random numbers, so runs without the shim differ from each
# other too, in the highest band by about 2e-5.  The eigensolver mends
# small errors (a library that scaled every double allreduce's first
# element by 1 + 1e-4 passed in some runs, failed in others), so this
# catches wrong data, not the last bits.  Sets: auto, and every
# allreduce and bcast algorithm of the registry forced at least once.
# Skipped (77) where mpb-mpi is not installed or the library was not built
# for Open MPI (scripts/test.sh runs it in its Open MPI stage).
: "${MPIEXEC:=mpiexec}"
. "$(dirname "$0")/app_common.sh"
mpb=${MPB:-$(command -v mpb-mpi)}
logp_app_start "$mpb" "MPB's MPI build (mpb-mpi)"
pass=0; fail=0

cat >"$work/cubic.ctl" <<'EOF'
(set! num-bands 6)
(set! k-points (interpolate 1 (list (vector3 0 0 0) (vector3 0.5 0 0) (vector3 0.5 0.5 0.5))))
(set! geometry (list (make sphere (center 0 0 0) (radius 0.3) (material (make dielectric (epsilon 13))))))
(set! geometry-lattice (make lattice (size 1 1 1)))
(set! resolution 12)
(run)
EOF

# mpb OUT ENV...: one run; the frequency lines go to OUT.freqs
mpb() {
    out=$1
    shift
    (cd "$work" && env "$@" timeout 120 $MPIEXEC -n 2 "$mpb" cubic.ctl >"$out" 2>"$out.err") &&
        grep '^freqs:, [0-9]' "$out" >"$out.freqs" && [ "$(wc -l <"$out.freqs")" -eq 5 ]
}
mpb "$work/plain.out" X=1 || { echo "SKIP: mpb-mpi fails at n = 2 without the shim"; tail -5 "$work/plain.out.err"; exit 77; }

# matches ENV...: one run under the shim exits 0, decides as forced and
# prints the plain run's frequencies (a line per band off, to stdout)
matches() {
    mpb "$work/out" LD_PRELOAD="$lib" PMPI_LOGP_VERBOSE=1 "$@" && logp_app_decided "$work/out.err" "$@" &&
        paste -d, "$work/plain.out.freqs" "$work/out.freqs" | awk -F, '{
            n = NF / 2; worst = 0
            for (i = 7; i <= n; i++) {
                if ($i !~ /^ *[0-9.]+(e[-+]?[0-9]+)?$/ || $(i + n) !~ /^ *[0-9.]+(e[-+]?[0-9]+)?$/) {
                    print "k-point " $2 ": not a frequency: " $(i + n); bad = 1; continue }
                d = ($i - $(i + n)) / ($i > 0 ? $i : 1)
                if (!(d <= 1e-4 && d >= -1e-4)) { print "k-point " $2 ", band " i - 6 ": off by " d; bad = 1 } } }
            END { exit bad }'
}
# run LABEL ENV...: passes if a run matches, or, where the first misses by
# frequencies alone, the run after it: about one set of these runs in 20
# has a run that lands 3.6e-4 - 3.9e-4 off in band 6 at k = 0, whatever
# the shim runs (2026-12-03: 2 of 39 sets with the previous build, one of
# them under a forced bcast, which hands MPB the library's own bytes; 3 of
# about 48 with this one); a real fault misses every time
run() {
    label=$1
    shift
    if matches "$@" >"$work/miss" || { grep -q '^k-point .*: off by' "$work/miss" && cat "$work/miss" &&
        echo "  (again: the first run missed by frequencies only)" && matches "$@"; }; then
        pass=$((pass + 1)); echo "ok: $label"
    else
        cat "$work/miss" 2>/dev/null
        fail=$((fail + 1)); echo "FAIL: $label"
        grep -v '^pmpi-logp: ' "$work/out.err" | tail -5
    fi
}
run auto
for a in $(logp_app_algorithms allreduce); do
    run "allreduce $a" PMPI_LOGP_ALLREDUCE=$a
done
for a in $(logp_app_algorithms bcast); do
    run "bcast $a" PMPI_LOGP_BCAST=$a
done
echo "mpb: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
