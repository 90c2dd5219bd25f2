#!/bin/sh
# Cliffs on a real machine: every forced algorithm's steady time (calls
# 101-200 of a fresh process, scripts/fresh-grid.sh's raw lines) against
# the model's prediction (pmpi-logp predict, the built-in parameters or
# TUNING's [default]) and against native.  Prints one row per
# (collective, size, algorithm) and flags the two bars of issue 38:
#   > 3 x its prediction   ("MODEL")   > 10 x native   ("CLIFF")
#   RAW=/tmp/grid.raw sh scripts/fresh-grid.sh build > /dev/null   # or SIZES= powers of 4
#   sh scripts/cliff-sweep.sh build /tmp/grid.raw > table.txt
#   env: TUNING=FILE (the parameters the run used; default: built-in),
#        NETWORK=loggp|shared (the model's network; default: the built-in)
set -u
[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR RAW" >&2; exit 2; }
b=$(cd "$1" && pwd)
raw=$2
params=${NETWORK:+--network $NETWORK}
if [ -n "${TUNING:-}" ]; then # L, o, g, G, gamma, copy, fresh of [default]
    params="$params"$(awk -F= '/^\[/ { d = ($0 ~ /^\[default\]/) } d && NF == 2 {
        k = $1; v = $2; gsub(/[ \t]/, "", k); sub(/#.*/, "", v); gsub(/[ \t]/, "", v)
        if (k ~ /^(L|o|g|G|gamma|copy|fresh)$/) printf " --%s %s", k, v }' "$TUNING")
fi
pred=$(mktemp)
trap 'rm -f "$pred"' EXIT
# the (P, bytes) pairs of the raw lines, each predicted once
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } print v["P"], v["bytes"] }' "$raw" |
    sort -u | while read -r P m; do
    # shellcheck disable=SC2086
    "$b/pmpi-logp" predict --P "$P" --bytes "$m" $params | awk -v P="$P" -v m="$m" '
        /^(bcast|reduce|alltoall|allreduce)[: ]/ { c = $1; sub(/:$/, "", c); next }
        c != "" && $1 ~ /^[a-z]/ && $3 == "us" { print P, m, c, $1, $2 }'
done >"$pred"

awk -v predfile="$pred" '
function val(s, k,   i, n, f) { n = split(s, f, " "); for (i = 1; i <= n; i++) if (index(f[i], k "=") == 1) return substr(f[i], length(k) + 2); return "" }
function med(key,   n, i, j, t, v) { n = cnt[key]; if (!n) return -1
    for (i = 1; i <= n; i++) v[i] = x[key, i]
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
BEGIN { while ((getline line < predfile) > 0) { split(line, f, " "); p[f[1], f[2], f[3], f[4]] = f[5] } }
{ cfg = val($0, "cfg"); c = val($0, "coll"); m = val($0, "bytes"); P = val($0, "P"); s = val($0, "steady101_200_us")
  if (cfg == "auto" || cfg == "second" || s == "" || s == "-") next
  k = c SUBSEP m SUBSEP cfg; if (!(k in seen)) { seen[k] = 1; order[++no] = k; PP[k] = P }
  x[k, ++cnt[k]] = s + 0 }
END {
  printf "%-9s %9s %-18s %11s %11s %7s %8s  %s\n", "coll", "bytes", "algorithm", "steady_us", "predicted", "/pred", "/native", "flag"
  nm = 0; nc = 0
  for (i = 1; i <= no; i++) {
    split(order[i], f, SUBSEP); c = f[1]; m = f[2]; a = f[3]
    t = med(order[i]); nat = med(c SUBSEP m SUBSEP "native"); q = p[PP[order[i]], m, c, a]
    flag = ""
    if (q > 0 && t > 3 * q) { flag = flag " MODEL"; nm++ }
    if (nat > 0 && t > 10 * nat) { flag = flag " CLIFF"; nc++ }
    printf "%-9s %9d %-18s %11.2f %11.2f %7.2f %8.2f %s\n", c, m, a, t, q, (q > 0 ? t / q : 0), (nat > 0 ? t / nat : 0), flag
  }
  printf "rows over 3 x their prediction: %d; over 10 x native: %d\n", nm, nc
}' "$raw"
