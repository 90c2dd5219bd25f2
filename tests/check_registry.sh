#!/bin/sh
# Adding an algorithm is its family file, one algo.def row and one
# Makefile.am line (docs/architecture.md): this test makes exactly those
# three changes to a copy of the sources (a "dummy-chain" bcast: a chain
# from the root), builds the pure layers and the CLI from the copied
# Makefile.am's core source list, and checks that the registry, the
# prices, the decision's candidates and the tree tool all know it.  It
# fails if registering needs any other edit (an extern, an include list,
# a switch).
set -u
top="${top_srcdir:-.}"
cc="${PURE_CC:-cc}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL: $1"; }

cp -R "$top/src" "$tmp/src" && cp "$top/Makefile.am" "$tmp/Makefile.am" || { echo "cannot copy sources"; exit 1; }

# 1. The family file.
cat > "$tmp/src/model/sched_dummy_chain.c" <<'EOF'
/* dummy-chain (tests/check_registry.sh only): the root sends to the next
 * rank, which sends on, P - 1 hops: (P - 1)(2o + L + (m - 1)G). */
#include "sched.h"

static void logp_dummy_chain_node(const logp_sched_t *s, int root, int rank, logp_tnode_t *n)
{
    int v = (rank - root + s->P) % s->P;
    n->parent = v == 0 ? -1 : (rank - 1 + s->P) % s->P;
    n->nkids = v < s->P - 1 ? 1 : 0;
    n->c[0] = rank;
}

static int logp_dummy_chain_kid(const logp_sched_t *s, int root, const logp_tnode_t *n, int j)
{
    (void)root;
    (void)j;
    return (int)((n->c[0] + 1) % s->P);
}

const logp_family_t logp_family_dummy_chain = {
    .node = logp_dummy_chain_node,
    .kid = logp_dummy_chain_kid,
};
EOF
# 2. One registry row.
echo 'LOGP_ALGO_X(DUMMY_CHAIN, "dummy-chain", LOGP_COLL_BCAST_BIT, logp_family_dummy_chain, -1, -1, "a chain from the root (registry test)")' \
    >> "$tmp/src/model/algo.def"
# 3. One Makefile.am line, in the core library's source list.
sed 's|^libpmpi_logp_core_la_SOURCES = \\$|&\n\tsrc/model/sched_dummy_chain.c \\|' "$tmp/Makefile.am" > "$tmp/Makefile.am.new" &&
    mv "$tmp/Makefile.am.new" "$tmp/Makefile.am"

# The core list as the copied Makefile.am gives it (continuation lines).
srcs=$(awk '/^libpmpi_logp_core_la_SOURCES *=/ {on = 1; sub(/^[^=]*=/, "")}
            on { line = $0; more = sub(/\\$/, "", line); n = split(line, w, " ");
                 for (i = 1; i <= n; i++) if (w[i] ~ /\.c$/) print w[i]; if (!more) on = 0 }' "$tmp/Makefile.am")
case "$srcs" in
*src/model/sched_dummy_chain.c*) ok "the family file is in the core source list" ;;
*) bad "the core source list does not name the new family file" ;;
esac
cli="$tmp/pmpi-logp"
clisrcs=$(sed -n 's/^pmpi_logp_SOURCES *= *//p' "$tmp/Makefile.am" | tr ' ' '\n' | grep '\.c$')
if (cd "$tmp" && $cc -std=c11 -O1 -w -D_POSIX_C_SOURCE=200809L -DLOGP_TUNING_DEFAULT="\"/nonexistent\"" -DPACKAGE_NAME="\"pmpi-logp\"" -DPACKAGE_VERSION="\"test\"" -o "$cli" $srcs $clisrcs -lm) > "$tmp/build.log" 2>&1; then
    ok "the pure layers and the CLI build with the new row"
else
    bad "build with the new row failed:"
    sed -n 1,40p "$tmp/build.log"
    echo "registry: $pass passed, $fail failed"
    exit 1
fi

if "$cli" algorithms | grep -q '^dummy-chain  *bcast  '; then ok "pmpi-logp algorithms lists it (bcast only)"
else bad "pmpi-logp algorithms does not list dummy-chain"; fi

# A chain of 5 ranks, 8 B: 4 hops of 2o + L + 7G = 4 x 2.4007 us.
out=$("$cli" predict --P 5 --bytes 8)
# a section's heading is "coll:" or "coll (...):", e.g. "alltoall (bytes per block):"
sect() { printf '%s\n' "$out" | awk -v s="$1" '/^[a-z]/ {h = $1; sub(/:$/, "", h); on = (h == s)} on && $1 == "dummy-chain" {print $2}'; }
t=$(sect bcast)
if [ -n "$t" ] && awk -v t="$t" 'BEGIN {exit !(t > 9.60 && t < 9.61)}'; then ok "predict prices it by simulating its schedule ($t us)"
else bad "predict: dummy-chain bcast priced '$t' (expected 9.6028 us)"; printf '%s\n' "$out"; fi
if [ -z "$(sect reduce)" ] && [ -z "$(sect alltoall)" ] && [ -z "$(sect allreduce)" ]; then ok "predict offers it for bcast only"
else bad "predict offers dummy-chain beyond bcast"; fi

out=$("$cli" tree --bcast dummy-chain --P 5)
if printf '%s\n' "$out" | grep -q '^completion: 9.60' && printf '%s\n' "$out" | grep -q '^        4  (receives at 9.603'; then
    ok "tree draws its chain"
else bad "tree --bcast dummy-chain:"; printf '%s\n' "$out"; fi

# A tuning file may force it; the decision table then runs it.
printf '[default]\nbcast = dummy-chain\n' > "$tmp/dummy.conf"
if "$cli" check "$tmp/dummy.conf" --P 5 > "$tmp/check.txt" 2>&1 && grep -q '^ *8  dummy-chain (9.6' "$tmp/check.txt"; then
    ok "a tuning file forces it (pmpi-logp check)"
else bad "pmpi-logp check with bcast = dummy-chain:"; cat "$tmp/check.txt"; fi

echo "registry: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
