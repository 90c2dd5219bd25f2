#!/bin/sh
# A molecular-dynamics code under the shim built for Open MPI: LAMMPS
# (Debian's lammps, built by Debian against Open MPI), 250 steps of the
# 3d Lennard-Jones melt (4000 atoms) at n = 2.  Its thermodynamic output
# (temperature, energies, pressure every 50 steps) is an MPI_Allreduce
# over the ranks' atoms; its set-up broadcasts and reduces.  At n = 2 every
# algorithm combines the two ranks' values in one operation, a + b = b + a
# exactly, so the thermo lines must equal the run without the shim to the
# last printed digit (and any wrong value would change the trajectory).
# Sets: auto, the refit, the nonblocking engine, and every allreduce,
# bcast and reduce algorithm of the registry forced.  Skipped (77) where
# lammps is not installed or the library was not built for Open MPI
# (scripts/test.sh runs it in its Open MPI stage).
: "${MPIEXEC:=mpiexec}"
. "$(dirname "$0")/app_common.sh"
lmp=${LAMMPS:-$(command -v lmp)}
logp_app_start "$lmp" "LAMMPS (lammps)" # lmp links liblammps, which links Open MPI's libmpi
pass=0; fail=0

cat >"$work/in.melt" <<'EOF'
units           lj
atom_style      atomic
lattice         fcc 0.8442
region          box block 0 10 0 10 0 10
create_box      1 box
create_atoms    1 box
mass            1 1.0
velocity        all create 3.0 87287 loop geom
pair_style      lj/cut 2.5
pair_coeff      1 1 1.0 1.0 2.5
neighbor        0.3 bin
neigh_modify    every 20 delay 0 check no
fix             1 all nve
thermo          50
run             250
EOF

# melt OUT ENV...: one run; its thermo lines (step and four numbers) go to OUT.thermo
melt() {
    out=$1
    shift
    (cd "$work" && env "$@" timeout 120 $MPIEXEC -n 2 "$lmp" -in in.melt -log none >"$out" 2>"$out.err") &&
        grep -E '^ +[0-9]+ +-?[0-9.]+ +-?[0-9.]+ +' "$out" >"$out.thermo" && [ "$(wc -l <"$out.thermo")" -eq 6 ]
}
melt "$work/plain.out" X=1 || { echo "SKIP: LAMMPS fails at n = 2 without the shim"; tail -5 "$work/plain.out.err"; exit 77; }

run() { # LABEL ENV...: the same thermo lines under the shim
    label=$1
    shift
    if melt "$work/out" LD_PRELOAD="$lib" PMPI_LOGP_VERBOSE=1 "$@" && logp_app_decided "$work/out.err" "$@" &&
        cmp -s "$work/plain.out.thermo" "$work/out.thermo"; then
        pass=$((pass + 1)); echo "ok: $label"
    else
        fail=$((fail + 1)); echo "FAIL: $label"
        diff "$work/plain.out.thermo" "$work/out.thermo" | head -4
        grep -v '^pmpi-logp: ' "$work/out.err" | tail -5
    fi
}
run auto
run "auto, refit of L and G" PMPI_LOGP_CONFIRM=2
run "auto, nonblocking engine" PMPI_LOGP_NONBLOCKING=1
run "binomial" PMPI_LOGP_ALLREDUCE=binomial PMPI_LOGP_BCAST=binomial PMPI_LOGP_REDUCE=binomial
run "flat" PMPI_LOGP_ALLREDUCE=flat PMPI_LOGP_BCAST=flat PMPI_LOGP_REDUCE=flat
run "logp-tree" PMPI_LOGP_ALLREDUCE=logp-tree PMPI_LOGP_BCAST=logp-tree PMPI_LOGP_REDUCE=logp-tree
for a in ring recursive-doubling reduce-scatter-allgather recursive-multiplying dissemination; do
    run "allreduce $a" PMPI_LOGP_ALLREDUCE=$a
done
for a in hetero-tree two-level scatter-allgather pipeline binary-pipeline two-tree; do
    run "bcast $a" PMPI_LOGP_BCAST=$a
done
echo "lammps: $pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
