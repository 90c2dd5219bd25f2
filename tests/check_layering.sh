#!/bin/sh
# The pure layers (model, config, select) must build without MPI: every
# file of them is compiled with a plain C compiler and no MPI include path
# (an mpi.h included anywhere, even through another header, fails here).
# Dependencies point down: model includes nothing above it, config only
# model, select only model and config, coll nothing of config/select/shim.
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
[ $fail -eq 0 ] && echo "layering: ok ($(ls "$src"/model/*.c "$src"/config/*.c "$src"/select/*.c | wc -l) files built without MPI)"
exit $fail
