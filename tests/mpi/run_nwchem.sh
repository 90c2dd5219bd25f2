#!/bin/sh
# A real application under the shim: NWChem (Debian's nwchem-mpich or
# nwchem-openmpi, whichever matches the library's MPI: built by Debian,
# not by us), a water molecule's Hartree-Fock energy and its
# B3LYP energy and gradient in the 6-31G* basis at n = 2.  NWChem's Global
# Arrays broadcast with MPI_Bcast and combine with MPI_Allreduce and
# MPI_Reduce (sizes 4 B - 64 KiB here, hundreds of calls per run); the SCF
# iterations, the DFT grid integration and the gradient all stand on them,
# so a wrong byte anywhere moves the energies or stops convergence.
#
# Each run must exit 0 and print both total energies equal to the run
# without the shim within 1e-8 hartree (the energies are printed to 1e-12;
# the algorithms combine in other orders, which moves the last digits),
# and the shim must have decided (a decision line under PMPI_LOGP_VERBOSE=1).
# Sets: auto, auto with the refit of L and G (PMPI_LOGP_CONFIRM=2), auto on
# the nonblocking engine, and forced algorithms, every bcast, allreduce and
# reduce algorithm of the registry at least once.
#
# ARMCI_USE_WIN_ALLOCATE=0: with MPICH 4.0.2 NWChem's one-sided layer
# (ARMCI-MPI) on windows from MPI_Win_allocate diverges at n = 2 without
# the shim too (SCF energy rising every iteration, "scf energy failed");
# with windows over its own memory it converges.  Not at n = 3: three ranks
# on two cores spin (one native run took over 300 s).  Skipped (77) where
# the package is not installed.  scripts/test.sh runs it for both builds.
: "${MPIEXEC:=mpiexec}"
. "$(dirname "$0")/app_common.sh"
mpi=mpich # the NWChem build of the library's MPI (MPICH's libmpich, Open MPI's libmpi)
[ -f "$lib" ] && case $(logp_app_mpi "$lib") in libmpi.so*) mpi=openmpi ;; esac
nwchem=${NWCHEM:-$(command -v nwchem.$mpi)}
basis=${NWCHEM_BASIS_LIBRARY:-/usr/share/nwchem/libraries/}
[ -d "$basis" ] || { echo "SKIP: NWChem's basis library not installed (nwchem-data)"; exit 77; }
logp_app_start "$nwchem" "NWChem's $mpi build (nwchem-$mpi)"
pass=0; fail=0
export NWCHEM_BASIS_LIBRARY="$basis" ARMCI_USE_WIN_ALLOCATE=0

cat >"$work/input.nw" <<'EOF'
start h2o
title "water: SCF energy, B3LYP energy and gradient"
geometry units angstrom noautosym
  symmetry c1
  O  0.000  0.000  0.117
  H  0.000  0.757 -0.470
  H  0.000 -0.757 -0.470
end
basis
  * library 6-31g*
end
scf
  thresh 1e-6
  maxiter 50
end
task scf energy
dft
  xc b3lyp
  convergence energy 1e-8
end
task dft gradient
EOF

# nw OUT ENV...: one run in a fresh directory (NWChem writes its scratch files there)
nw() {
    out=$1
    shift
    rm -rf "$work/run" && mkdir "$work/run" && cp "$work/input.nw" "$work/run/h2o.nw" &&
        (cd "$work/run" && env "$@" timeout 120 $MPIEXEC -n 2 "$nwchem" h2o.nw >"$out" 2>"$out.err")
}
energies() { # OUT: the SCF and the DFT total energy
    awk '/Total SCF energy =/ { s = $NF } /Total DFT energy =/ { d = $NF } END { if (s != "" && d != "") print s, d }' "$1"
}
nw "$work/plain.out" X=1 && ref=$(energies "$work/plain.out")
[ -n "${ref:-}" ] || { echo "SKIP: NWChem fails at n = 2 without the shim"; tail -5 "$work/plain.out" "$work/plain.out.err"; exit 77; }
echo "without the shim: $ref"

# run LABEL ENV...: passes under the shim with the plain run's energies
run() {
    label=$1
    shift
    if nw "$work/out" LD_PRELOAD="$lib" PMPI_LOGP_VERBOSE=1 "$@"; then rc=0; else rc=$?; fi
    got=$(energies "$work/out")
    if [ $rc -eq 0 ] && [ -n "$got" ] && logp_app_decided "$work/out.err" "$@" &&
        echo "$ref $got" | awk '{ d1 = $1 - $3; d2 = $2 - $4; exit !(d1 < 1e-8 && d1 > -1e-8 && d2 < 1e-8 && d2 > -1e-8) }'; then
        pass=$((pass + 1)); echo "ok: $label: $got"
    else
        fail=$((fail + 1)); echo "FAIL: $label: exit $rc, energies '$got' (want '$ref')"
        grep -v '^pmpi-logp: ' "$work/out.err" | tail -5; tail -5 "$work/out"
    fi
}
run auto
run "auto, refit of L and G" PMPI_LOGP_CONFIRM=2
run "auto, nonblocking engine" PMPI_LOGP_NONBLOCKING=1
run "binomial" PMPI_LOGP_BCAST=binomial PMPI_LOGP_ALLREDUCE=binomial PMPI_LOGP_REDUCE=binomial
run "flat" PMPI_LOGP_BCAST=flat PMPI_LOGP_ALLREDUCE=flat PMPI_LOGP_REDUCE=flat
run "logp-tree, recursive-multiplying, chain-adaptive" PMPI_LOGP_BCAST=logp-tree \
    PMPI_LOGP_ALLREDUCE=recursive-multiplying PMPI_LOGP_REDUCE=chain-adaptive
run "two-tree, ring, reduce-scatter-gather" PMPI_LOGP_BCAST=two-tree PMPI_LOGP_ALLREDUCE=ring \
    PMPI_LOGP_REDUCE=reduce-scatter-gather
run "scatter-allgather, reduce-scatter-allgather, chunked-rsg" PMPI_LOGP_BCAST=scatter-allgather \
    PMPI_LOGP_ALLREDUCE=reduce-scatter-allgather PMPI_LOGP_REDUCE=chunked-rsg
run "binary-pipeline, recursive-doubling, two-tree" PMPI_LOGP_BCAST=binary-pipeline \
    PMPI_LOGP_ALLREDUCE=recursive-doubling PMPI_LOGP_REDUCE=two-tree
run "pipeline, logp-tree, pipeline" PMPI_LOGP_BCAST=pipeline PMPI_LOGP_ALLREDUCE=logp-tree PMPI_LOGP_REDUCE=pipeline
run "hetero-tree, chain-opt" PMPI_LOGP_BCAST=hetero-tree PMPI_LOGP_REDUCE=chain-opt
run "two-level, chain" PMPI_LOGP_BCAST=two-level PMPI_LOGP_REDUCE=chain
for a in logp-tree hetero-tree two-level binary-pipeline; do
    run "reduce $a" PMPI_LOGP_REDUCE=$a
done
echo "nwchem: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
