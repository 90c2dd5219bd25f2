#!/bin/sh
# make install into a staging directory: the libraries, tools, pkg-config
# file, manual pages and the site's tuning file are installed; an edit to
# the site file survives a second `make install`; a C program relinked
# from that (non-system) prefix through pkg-config runs under the shim;
# uninstall removes the site file only when it is unedited.
b="$(cd "${top_builddir:-.}" && pwd)"
s="$(cd "${top_srcdir:-.}" && pwd)"
: "${MPIEXEC:=mpiexec}"
[ -f "$b/.libs/libpmpi-logp.so" ] || { echo "SKIP: not built"; exit 77; }
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
ko() { fail=$((fail + 1)); echo "FAIL: $1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=/opt/pmpi-logp-test # never written: DESTDIR stages it
stage="$tmp/stage"
make -C "$b" -s install DESTDIR="$stage" prefix="$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
root="$stage$prefix"
missing=""
for f in lib/libpmpi-logp.so lib/libpmpi-logp.a lib/pkgconfig/pmpi-logp.pc bin/pmpi-logp bin/pmpi-logp-bench \
    bin/pmpi-logp-probe share/pmpi-logp/default.conf share/pmpi-logp/template.conf etc/pmpi-logp.conf \
    share/man/man1/pmpi-logp.1 share/man/man1/pmpi-logp-bench.1 share/man/man1/pmpi-logp-probe.1 \
    share/man/man5/pmpi-logp.conf.5 share/man/man7/libpmpi-logp.7; do
    [ -e "$root/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && ok "installed: libraries, tools, pkg-config, manuals, site file" || ko "not installed:$missing"
man -l "$root/share/man/man5/pmpi-logp.conf.5" 2>/dev/null | grep -q 'ranks_per_node' && ok "man pmpi-logp.conf renders" ||
    ko "man pmpi-logp.conf renders"
echo "# site edit" >>"$root/etc/pmpi-logp.conf"
make -C "$b" -s install DESTDIR="$stage" prefix="$prefix" >"$tmp/install2.log" 2>&1
grep -q '^# site edit$' "$root/etc/pmpi-logp.conf" && grep -q "keeping the site's" "$tmp/install2.log" &&
    ok "a second make install keeps the site's edit" || ko "a second make install keeps the site's edit"
# relink from the staged prefix: pkg-config with the staged libdir, rpath to it
libdir="$root/lib"
if command -v pkg-config >/dev/null 2>&1 &&
    libs=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --define-variable=libdir="$libdir" --libs pmpi-logp) &&
    ${MPICC:-mpicc} -o "$tmp/hello" "$s/tests/mpi/hello_coll.c" $libs -Wl,-rpath,"$libdir" >"$tmp/cc.log" 2>&1; then
    PMPI_LOGP_VERBOSE=1 timeout 120 $MPIEXEC -n 2 "$tmp/hello" >"$tmp/out" 2>"$tmp/err"
    grep -q 'all results correct' "$tmp/out" && grep -q '^pmpi-logp: .* -> ' "$tmp/err" &&
        ok "relinked from a non-system prefix (pkg-config, rpath): the shim runs" ||
        { ko "relinked from a non-system prefix"; tail -3 "$tmp/out" "$tmp/err"; }
else
    ko "relink from the staged prefix"; cat "$tmp/cc.log"
fi
make -C "$b" -s uninstall DESTDIR="$stage" prefix="$prefix" >/dev/null 2>&1
[ -e "$root/etc/pmpi-logp.conf" ] && [ ! -e "$root/lib/libpmpi-logp.so" ] &&
    ok "uninstall keeps the edited site file" || ko "uninstall keeps the edited site file"
echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
