#!/bin/sh
# Fuzz the tuning-file parser with libFuzzer (clang -fsanitize=fuzzer,address,undefined).
#   sh scripts/fuzz.sh [RUNS]     (default 1000000 executions)
# Needs clang and Debian's libclang-rt-dev (installed if missing and root).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-1000000}
if ! command -v clang >/dev/null 2>&1 || ! dpkg -s libclang-rt-14-dev >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
fi
out="$top/build-fuzz"
mkdir -p "$out/corpus"
cp "$top"/tests/data/fuzz-corpus/* "$top"/tuning/*.conf "$out/corpus/" 2>/dev/null || true
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -D_POSIX_C_SOURCE=200809L \
    -o "$out/fuzz_config" "$top/tests/fuzz/fuzz_config.c" "$top/src/config/config.c" "$top/src/config/units.c" \
    "$top/src/model/algo.c" "$top/src/model/params.c" "$top/src/model/learn.c" -lm
"$out/fuzz_config" -runs="$runs" -max_len=8192 -print_final_stats=1 "$out/corpus" 2>&1 | tail -12
echo "fuzz: $runs runs without a crash"
