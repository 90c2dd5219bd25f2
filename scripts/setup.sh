#!/bin/sh
# Installs what libpmpi-logp needs on Debian 12 (when run as root and
# something is missing) and builds it from this checkout in build/.
# Used by scripts/test.sh and scripts/demo.sh; safe to run again.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
pkgs="mpich libmpich-dev gfortran libtool autoconf automake pkg-config check make gcc"
missing=""
for p in $pkgs; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "setup: installing$missing"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq $missing >/dev/null
    else
        echo "setup: missing Debian packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
        exit 1
    fi
fi
cd "$top"
[ -x configure ] && [ configure -nt configure.ac ] && [ Makefile.in -nt Makefile.am ] || autoreconf -fi >/dev/null
mkdir -p build
cd build
[ -f Makefile ] || ../configure --prefix="$top/build/install" ${CONFIGURE_FLAGS:-} >/dev/null
make -j"$(nproc)" >/dev/null
echo "setup: built in $top/build"
