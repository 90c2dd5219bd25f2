# Sourced by the application runners (run_nwchem.sh, run_mpb.sh).
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
