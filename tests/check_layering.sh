#!/bin/sh
# The pure layers (model, config, select) must build without MPI: every
# file of them is compiled with a plain C compiler and no MPI include path
# (an mpi.h included anywhere, even through another header, fails here).
# Dependencies point down: model includes nothing above it, config only
# model, select only model and config, coll nothing of config/select/shim;
# no two modules include each other; no file over 800 lines.
src="${top_srcdir:-.}/src"
cc="${PURE_CC:-cc}"
fail=0
for f in "$src"/model/*.c "$src"/config/*.c "$src"/select/*.c; do
    if ! $cc -std=c11 -D_POSIX_C_SOURCE=200809L -fsyntax-only "$f" 2>/tmp/layering.$$; then
        echo "FAIL: $f does not build without MPI:"; head -3 /tmp/layering.$$; fail=1
    fi
done
rm -f /tmp/layering.$$
if grep -rnE '#include *"\.\./(config|select|coll|shim)/' "$src/model" 2>/dev/null; then
    echo "FAIL: model depends on a layer above it"; fail=1
fi
if grep -rnE '#include *"\.\./(select|coll|shim)/' "$src/config" 2>/dev/null; then
    echo "FAIL: config depends on a layer above it"; fail=1
fi
if grep -rnE '#include *"\.\./(coll|shim)/' "$src/select" 2>/dev/null; then
    echo "FAIL: select depends on a layer above it"; fail=1
fi
if grep -rnE '#include *"\.\./(shim|select|config)/' "$src/coll" 2>/dev/null; then
    echo "FAIL: coll depends on a layer above it"; fail=1
fi
# No two modules (a .c and its .h) include each other, directly or
# around a cycle: dependencies point one way inside a layer too.
edges=$(for f in "$src"/*/*.[ch]; do
    d=${f%/*}; m=${f#"$src"/}; m=${m%.*}
    sed -n 's/^#include "\(.*\)\.h".*/\1/p' "$f" | while read -r inc; do
        t=$(cd "$d" && cd "$(dirname "$inc")" 2>/dev/null && pwd)/$(basename "$inc")
        n=${t#"$(cd "$src" && pwd)"/}
        [ "$n" != "$m" ] && [ -f "$src/$n.h" ] && echo "$m $n"
    done
done)
if ! echo "$edges" | tsort >/dev/null 2>/tmp/layering.$$; then
    echo "FAIL: modules include each other (a cycle):"; grep -v 'input contains a loop' /tmp/layering.$$ | head; fail=1
fi
rm -f /tmp/layering.$$
# No source file over 800 lines: a file holds one module.
for f in "$src"/*/*.[ch]; do
    n=$(wc -l <"$f")
    [ "$n" -le 800 ] || { echo "FAIL: $f has $n lines (at most 800)"; fail=1; }
done
# Every script test is executable (the test driver runs it as a program:
# a plain file fails with status 126, once the fresh clone reaches it).
top=${src%/src}
for t in "$top"/tests/*.sh "$top"/tests/mpi/*.sh; do
    [ -x "$t" ] || { echo "FAIL: $t is not executable (chmod +x, and git keeps the mode)"; fail=1; }
done
[ $fail -eq 0 ] && echo "layering: ok ($(ls "$src"/model/*.c "$src"/config/*.c "$src"/select/*.c | wc -l) files built without MPI)"
exit $fail
