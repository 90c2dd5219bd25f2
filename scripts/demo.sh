#!/bin/sh
# The main job: build, then run an ordinary MPI program on 4 ranks with the
# shim preloaded and PMPI_LOGP_VERBOSE=1, which prints, per communicator and
# collective, the algorithm that ran and its predicted time.  Parameters:
# the built-in defaults, or PMPI_LOGP_TUNING=FILE if you set it.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh"
cd "$top/build"
# the MPI tools configure found (MPICH's, also when Open MPI is installed beside it)
MPICC=$(sed -n 's/^MPICC = //p' Makefile)
MPIEXEC=$(sed -n 's/^MPIEXEC = //p' Makefile)
$MPICC -o hello_coll "$top/tests/mpi/hello_coll.c"
echo "== pmpi-logp predict for 4 ranks, 1 KiB (built-in parameters)"
./pmpi-logp predict --P 4 --bytes 1024
np=${NP:-4}
# With more ranks than processors, auto leaves the collectives to the MPI
# library (ranks poll, every message can wait for a time slice: the model
# does not describe that); the demonstration shows the model's choices.
over=""
if [ "$np" -gt "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo "$np")" ]; then
    echo "(this machine has fewer processors than $np ranks: PMPI_LOGP_OVERSUBSCRIBED=model shows the model's"
    echo " choices anyway; without it auto would run the MPI library's own collectives here)"
    over="PMPI_LOGP_OVERSUBSCRIBED=model"
fi
echo "== mpiexec -n $np hello_coll with LD_PRELOAD=$top/build/.libs/libpmpi-logp.so"
env LD_PRELOAD="$top/build/.libs/libpmpi-logp.so" PMPI_LOGP_VERBOSE=1 $over $MPIEXEC -n "$np" ./hello_coll
