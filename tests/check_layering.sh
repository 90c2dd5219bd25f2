#!/bin/sh
# The pure layers (model, config, select) must not include mpi.h, and
# dependencies point down: model includes nothing above it, config only
# model, select only model and config.
src="${top_srcdir:-.}/src"
fail=0
if grep -rn '#include *[<"]mpi\.h[>"]' "$src/model" "$src/config" "$src/select" 2>/dev/null; then
    echo "FAIL: mpi.h included in a pure layer"; fail=1
fi
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
[ $fail -eq 0 ] && echo "layering: ok"
exit $fail
