# Sourced by the application runners (run_nwchem.sh, run_mpb.sh,
# run_lammps.sh, run_mpi4py.sh).

# $lib: the shim library of the build (${top_builddir}/.libs)
lib="$(cd "${top_builddir:-.}" && pwd)/.libs/libpmpi-logp.so"

# logp_app_start PROGRAM NAME: $lib and PROGRAM (NAME: its Debian package;
# PROGRAM may be a module a program loads, as mpi4py's) exist and link the
# same MPI library (MPICH's libmpich, Open MPI's libmpi), else the runner is
# skipped (exit 77); then $work is a temporary directory, removed at exit.
logp_app_start() {
    [ -f "$lib" ] || { echo "SKIP: $lib not built"; exit 77; }
    [ -n "$1" ] && [ -e "$1" ] || { echo "SKIP: $2 not installed"; exit 77; }
    [ "$(logp_app_mpi "$1")" = "$(logp_app_mpi "$lib")" ] ||
        { echo "SKIP: $1 and $lib are not built for the same MPI"; exit 77; }
    work=$(mktemp -d) && [ -d "$work" ] || { echo "FAIL: mktemp -d"; exit 99; }
    trap 'rm -rf "$work"' EXIT
    trap 'exit 1' HUP INT TERM
}
# logp_app_mpi FILE: the MPI library FILE links (libmpich.so.N or libmpi.so.N)
logp_app_mpi() {
    ldd "$1" | grep -Eo 'lib(mpich|mpi)\.so[.0-9]*' | head -1
}

# logp_app_decided ERR ENV...: the shim decided in the run whose stderr is
# ERR (PMPI_LOGP_VERBOSE=1: a decision line), and decided every collective
# that ENV's settings force to the forced algorithm (a decision line of
# that collective naming it), so that a forced set whose collective never
# ran cannot pass.
logp_app_decided() {
    err=$1
    shift
    grep -q '^pmpi-logp: .* -> ' "$err" || { echo "no decision line"; return 1; }
    for kv in "$@"; do
        case $kv in
        PMPI_LOGP_BCAST=*) c=bcast ;;
        PMPI_LOGP_REDUCE=*) c=reduce ;;
        PMPI_LOGP_ALLREDUCE=*) c=allreduce ;;
        PMPI_LOGP_ALLTOALL=*) c=alltoall ;;
        PMPI_LOGP_ALLTOALLV=*) c=alltoallv ;;
        *) continue ;;
        esac
        grep -Eq "^pmpi-logp: .*\\): $c [0-9]+-[0-9]+ B.* -> ${kv#*=} " "$err" ||
            { echo "no $c decision '${kv#*=}'"; return 1; }
    done
}

# logp_app_algorithms COLL: the registry's algorithms of collective COLL
# (bcast, reduce, ...) but native and auto, one a line, from the build's CLI
logp_app_algorithms() {
    "$(cd "${top_builddir:-.}" && pwd)/pmpi-logp" algorithms "$1"
}
