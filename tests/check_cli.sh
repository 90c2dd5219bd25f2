#!/bin/sh
# The command-line tool behaves like a Unix tool: --help per command exits
# 0, --version prints the version, an unknown option or a bad value exits 2
# with one line on stderr, --opt=VALUE works, byte counts take units,
# `pmpi-logp algorithms` lists every algorithm of the registry, and the
# README's algorithm table and tuning/template.conf name exactly those, per
# collective.
b="${top_builddir:-.}"
s="${top_srcdir:-.}"
cli="$b/pmpi-logp"
[ -x "$cli" ] || { echo "SKIP: $cli not built"; exit 77; }
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "ok: $1"; }
ko() { fail=$((fail + 1)); echo "FAIL: $1"; }
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err" "$out.reg" "$out.doc"' EXIT

"$cli" --version >"$out" && grep -q '^pmpi-logp (libpmpi-logp) [0-9]' "$out" && ok "--version" || ko "--version"
"$cli" --help >"$out" && grep -q 'pmpi-logp algorithms' "$out" && ok "--help" || ko "--help"
for cmd in tree predict decide sum-plan check algorithms show-learned; do
    "$cli" $cmd --help >"$out" 2>"$err" && grep -q "^usage: pmpi-logp $cmd" "$out" && [ ! -s "$err" ] &&
        ok "$cmd --help" || ko "$cmd --help"
    "$cli" $cmd --no-such-option >"$out" 2>"$err"
    [ $? -eq 2 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q "^pmpi-logp $cmd: unknown or ambiguous option --no-such-option" "$err" &&
        ok "$cmd: unknown option, exit 2, one line" || { ko "$cmd: unknown option"; cat "$err"; }
done
bad() { # expected-message args...
    want=$1; shift
    "$cli" "$@" >"$out" 2>"$err"
    [ $? -eq 2 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q -- "$want" "$err" && ok "$* -> exit 2: $want" ||
        { ko "$*"; cat "$err"; }
}
bad "bad value for --bytes: 'abc'" predict --P 4 --bytes abc
bad "bad value for --bytes: '64k'" predict --P 4 --bytes 64k
bad "bad value for --P: '8x'" tree --P 8x
bad "bad value for --P: '0'" tree --P=0
bad "--P needs a value" predict --P
bad "bad value for --bcast: 'bcst'" tree --bcast bcst
bad "--N does not apply here" predict --N 3
bad "unknown command 'bogus'" bogus
bad "expected check FILE" check
bad "unexpected argument 'extra'" tree extra
bad "bad value for --native: 'lam'" predict --P 4 --native lam
bad "bad value for --allreduce: 'ring2'" tree --allreduce ring2 --P 4
bad "bad value for --allreduce: 'chain'" predict --allreduce chain --P 4
bad "--root does not apply to an allreduce" tree --allreduce ring --P 4 --root 1
# --native picks whose defaults "native" models (Open MPI 4.1: knomial bcast at 16 ranks, 1 KiB)
"$cli" predict --P 16 --bytes 1K --native openmpi >"$out" && grep -q "native .*(model of Open MPI 4.1's default: knomial)" "$out" &&
    "$cli" predict --P 16 --bytes 1K --native=mpich >"$out" && grep -q "native .*(model of MPICH 4.0.2's default: binomial)" "$out" &&
    ok "predict --native openmpi | mpich" || { ko "predict --native"; cat "$out"; }
# --fresh prices the pages MPICH's large reduce faults in at every call (select/native.c):
# 4 MiB at P = 2 with --fresh 0 is m (fresh + fresh / 2) = 1.5 x 4194304 x 0.25 ns = 1572.864 us cheaper
a=$("$cli" predict --reduce native --P 2 --bytes 4M --native mpich | awk '$1 == "native" {print $2}')
z=$("$cli" predict --reduce native --P 2 --bytes 4M --native mpich --fresh 0 | awk '$1 == "native" {print $2}')
awk -v a="$a" -v z="$z" 'BEGIN { d = a - z - 1572.864; exit !(d < 0.001 && d > -0.001) }' &&
    "$cli" predict --reduce native --P 2 --bytes 4M --fresh=0.5ns/B | grep -q 'fresh=0.5ns/B' &&
    ok "predict --fresh: MPICH's reduce's fresh buffers ($a - $z us)" || ko "predict --fresh ($a, $z)"
bad "bad value for --fresh: '0.5ns'" predict --P 2 --fresh 0.5ns
# node-aggregate on one node runs the ring (select.c: nothing to aggregate): predict says so, at the ring's
# price, and never makes it auto's pick; on several nodes it is priced as itself
ring=$("$cli" predict --alltoall ring --P 2 --bytes 4M | awk '$1 == "ring" {print $2}')
"$cli" predict --alltoall node-aggregate --P 2 --bytes 4M >"$out" &&
    awk -v r="$ring" '$1 == "node-aggregate" && $2 == r && /runs ring here: one node/ { f = 1 } END { exit !f }' "$out" &&
    "$cli" decide --alltoall node-aggregate --P 2 --bytes 4M | grep -q -- '-> ring ' &&
    "$cli" predict --P 8 --bytes 8 | awk '/^alltoall/ { a = 1; next } /^[a-z]/ { a = 0 } a && /within the model.s error of node-aggregate/ { f = 1 } END { exit f }' &&
    "$cli" predict --alltoall node-aggregate --P 4 --nodes 2 --bytes 4M >"$out" && ! grep -q 'runs ring' "$out" &&
    ok "predict/decide: node-aggregate on one node runs the ring ($ring us)" || { ko "node-aggregate on one node"; cat "$out"; }
# decide --alltoallv: the shim's vote gate (shim/decide.c) on the built-in platform: it pays at
# P = 256 (bruck's 8 rounds against 255 messages each way), not at P = 4
"$cli" decide --alltoallv auto --P 256 --bytes 8 >"$out" && grep -q ' vote=pays vote_us=[0-9.]* vote_gate_ms=' "$out" &&
    "$cli" decide --alltoallv auto --P 4 --bytes 8 >"$out" && grep -q ' vote=no ' "$out" &&
    "$cli" decide --bcast auto --P 256 --bytes 8 >"$out" && ! grep -q 'vote=' "$out" &&
    ok "decide --alltoallv: the vote pays at P = 256, not at 4" || { ko "decide --alltoallv: the vote"; cat "$out"; }
"$cli" tree --P=8 --bytes=64K >"$out" 2>"$err" && grep -q 'P=8, root 0, 65536 B' "$out" &&
    ok "--opt=VALUE and --bytes 64K = 65536" || ko "--opt=VALUE and --bytes 64K"
# tree --alltoall: a Bruck schedule shows its radix (4 for 8-byte blocks at P = 16, default
# parameters: two rounds of three sends) and its operations
"$cli" tree --alltoall bruck --P 16 --bytes 8 --rank 5 >"$out" 2>"$err" && grep -q 'bruck, P=16, 8 B per block, radix 4' "$out" &&
    grep -q 'rank 5: 12 operations, 12 messages' "$out" && grep -q 'send to *9  32 B' "$out" && ! "$cli" tree --alltoall two-tree --P 4 2>/dev/null &&
    ok "tree --alltoall bruck: radix and operations" || { ko "tree --alltoall"; cat "$out" "$err"; }
# predict --allreduce ALGO: the allreduce section alone, that algorithm's line, priced as in the
# full table
"$cli" predict --P 64 --bytes 1M >"$out.doc" 2>"$err" || ko "predict --P 64 --bytes 1M"
for a in ring recursive-doubling; do
    "$cli" predict --allreduce "$a" --P 64 --bytes 1M >"$out" 2>"$err" &&
        [ "$(grep -c '^  [a-z-]*  *[0-9.]* us' "$out")" -eq 1 ] && line=$(grep "^  $a  *[0-9.]* us" "$out") &&
        [ "$(grep -c '^[a-z]*:$' "$out")" -eq 1 ] && grep -q '^allreduce:$' "$out" &&
        awk '/^[a-z]/ { on = $1 == "allreduce:" } on' "$out.doc" | grep -qxF "$line" &&
        ok "predict --allreduce $a: one time, as in the full table" || { ko "predict --allreduce $a"; cat "$out" "$err"; }
done
# tree --allreduce: recursive doubling is no tree, so rank 1's operations (its own value, then three
# rounds of a combining receive and a send at P = 6, folded); an allreduce names no root
"$cli" tree --allreduce recursive-doubling --P 6 --rank 1 >"$out" 2>"$err" &&
    grep -q '^allreduce recursive-doubling, P=6, 8 B, 1 part, L=' "$out" && grep -q '^rank 1: 7 operations, 6 messages' "$out" &&
    [ "$(grep -c '^  recv+combine from  *[0-9]  8 B' "$out")" -eq 3 ] && [ "$(grep -c '^  send to  *[0-9]  8 B' "$out")" -eq 3 ] &&
    grep -q '^  own value ' "$out" && grep -q '^completion: [0-9.]* us' "$out" &&
    ok "tree --allreduce recursive-doubling --rank 1: its operations" || { ko "tree --allreduce recursive-doubling"; cat "$out" "$err"; }
# tree --allreduce recursive-multiplying: at P = 16 on the default platform radix 4, so rank 5 sends
# to its group's 3 others, takes their partial results into slots 0 - 2 and folds the 4 operands
# (its own the second), twice
"$cli" tree --allreduce recursive-multiplying --P 16 --rank 5 >"$out" 2>"$err" &&
    grep -q '^rank 5: 15 operations, 12 messages' "$out" && [ "$(grep -c '^  send to  *[0-9]*  8 B$' "$out")" -eq 6 ] &&
    [ "$(grep -c '^  recv from  *[0-9]*  8 B (slot [012])$' "$out")" -eq 6 ] &&
    [ "$(grep -c '^  fold slots  *8 B (4 operands, own 1-th)$' "$out")" -eq 2 ] &&
    ok "tree --allreduce recursive-multiplying --rank 5: slots and folds" || { ko "tree --allreduce recursive-multiplying"; cat "$out" "$err"; }
# a two-tree bcast on a shared network is paced (sched.h: window = its lag + 3), on LogGP and as a reduce not
"$cli" tree --bcast two-tree --P 64 --bytes 1M --network shared --rank 1 >"$out" 2>"$err" &&
    grep -q 'parts, paced (synchronous sends, at most [0-9]* in flight)' "$out" &&
    "$cli" tree --bcast two-tree --P 64 --bytes 1M --network loggp --rank 1 >"$out" 2>"$err" &&
    grep -q '^bcast two-tree, P=64, root 0, 1048576 B, [0-9]* parts, L=' "$out" &&
    "$cli" tree --reduce two-tree --P 64 --bytes 1M --network shared --rank 1 >"$out" 2>"$err" && ! grep -q paced "$out" &&
    ok "tree: two-tree's bcast paced on a shared network" || { ko "tree: paced two-tree"; cat "$out" "$err"; }
# the default network: shared for several nodes, as the shim's between nodes (config.h); loggp for
# one node and for --P alone (the seeds' LogP machine); --network wins
"$cli" predict --P 16 --bytes 1M >"$out" 2>"$err" && grep -q 'network = loggp' "$out" &&
    "$cli" predict --nodes 4 --rpn 4 --bytes 1M >"$out" 2>"$err" && grep -q 'network = shared' "$out" &&
    "$cli" predict --nodes 1 --rpn 16 --bytes 1M >"$out" 2>"$err" && grep -q 'network = loggp' "$out" &&
    "$cli" predict --P 16 --bytes 1M --network shared >"$out" 2>"$err" && grep -q 'network = shared' "$out" &&
    ok "default network: shared for several nodes, loggp for one and for --P alone" || { ko "default network"; cat "$out" "$err"; }
"$cli" predict --P 4 --bytes 1MiB >"$out" 2>"$err" && grep -q '1048576' "$out" && ok "--bytes 1MiB = 1048576" ||
    { ko "--bytes 1MiB"; cat "$out" "$err"; }
# check: every error and the warnings, exit 1; warnings alone are valid
printf '[default]\nL = 1us\nL = 2us\ng = 0\no = 1 parsec\nfoo = 1\n' >"$out.conf"
"$cli" check "$out.conf" >"$out" 2>"$err"
[ $? -eq 1 ] && grep -q ':3: warning: L is set twice' "$err" && grep -q ':4: warning: g = 0' "$err" &&
    grep -q ':5: o = 1 parsec' "$err" && grep -q ":6: unknown key 'foo'" "$err" && grep -q '2 errors, 2 warnings' "$err" &&
    ok "check: every error and warning, exit 1" || { ko "check: every error and warning"; cat "$err"; }
printf '[default]\nL = 1us\nL = 2us\n' >"$out.conf"
"$cli" check "$out.conf" >"$out" 2>"$err" && grep -q 'valid, 1 sections, 1 warning' "$out" &&
    ok "check: warnings only, valid, exit 0" || { ko "check: warnings only"; cat "$out" "$err"; }
# show-learned: a learned section's basis (the prices its corrections were measured against)
printf '[size 4-4]\nrule = bcast 8-15 flat\nbasis = 00ff00ff00ff00ff\ncorrection = bcast flat 8 2.5\n' >"$out.conf"
"$cli" show-learned "$out.conf" >"$out" 2>"$err" && grep -q '^\[size 4-4\] basis 00ff00ff00ff00ff (line 1)' "$out" &&
    grep -q 'bcast  *8-15  *flat .*flat 2.5' "$out" && ok "show-learned: the basis and the correction" ||
    { ko "show-learned: basis"; cat "$out" "$err"; }
# ... and a rule not settled: the candidates still to try and the calls before
printf '[size 2-2]\nrule = reduce 64K-128K commutative native\nexplore = reduce 64K-128K commutative two-tree,binomial after 120\n' >"$out.conf"
"$cli" show-learned "$out.conf" >"$out" 2>"$err" &&
    grep -q 'reduce  *65536-131071  *native .*to try binomial, to try two-tree (after 120 calls)' "$out" &&
    ok "show-learned: a rule not settled (explore ... after 120)" || { ko "show-learned: explore"; cat "$out" "$err"; }
rm -f "$out.conf"
# every registry row, with its collectives
"$cli" algorithms >"$out" || ko "algorithms"
n=0
for name in $(sed -n 's/^LOGP_ALGO_X([A-Z_]*, *"\([a-z-]*\)".*/\1/p' "$s/src/model/algo.def"); do
    n=$((n + 1))
    grep -q "^$name " "$out" || ko "algorithms lists $name"
done
[ "$n" -ge 10 ] && [ "$(($(wc -l <"$out") - 1))" -eq "$n" ] && ok "algorithms: the $n rows of algo.def" ||
    ko "algorithms: $n rows in algo.def, $(($(wc -l <"$out") - 1)) listed"
# every row's error bands are the fidelity suite's 90th percentiles (docs/results/smpi-fidelity/summary.md,
# "90th pct abs error" per network), and predict shows them
sum="$s/docs/results/smpi-fidelity/summary.md"
bands=$(sed -n 's/^LOGP_ALGO_X([A-Z_]*, *"\([a-z-]*\)",.*, *\(-\{0,1\}[0-9.]*\), *\(-\{0,1\}[0-9.]*\), *"[^"]*")$/\1 \2 \3/p' "$s/src/model/algo.def")
nb=0; badb=
for net in loggp shared; do
    col=$([ "$net" = loggp ] && echo 2 || echo 3)
    got=$(printf '%s\n' "$bands" | awk -v c="$col" '$c >= 0 { print $1, $c + 0 }' | sort)
    want=$(awk -v net="$net" '/^## / { on = ($0 == "## network = " net) } on && /^\| [a-z]/ && $2 != "algorithm" {
        v = $8; sub(/%$/, "", v); print $2, v + 0 }' "$sum" | sort)
    [ -n "$want" ] && [ "$got" = "$want" ] && nb=$((nb + $(printf '%s\n' "$got" | wc -l))) || badb="$badb $net"
done
[ -z "$badb" ] && [ "$nb" -ge 40 ] && "$cli" predict --P 16 --bytes 1M --network shared | grep -q '^  two-tree  *[0-9.]* us +-0.3%' &&
    ok "algo.def's error bands are the fidelity suite's ($nb), predict shows them" ||
    ko "error bands: algo.def and $sum differ (${badb:-none}) or predict does not show them"
# every row's collectives are those of its mask in algo.def (allreduce's new bit included)
for coll in bcast reduce alltoall allreduce alltoallv; do
    bit=LOGP_COLL_$(echo "$coll" | tr a-z A-Z)_BIT
    want=$(sed -n 's/^LOGP_ALGO_X([A-Z_]*, *"\([a-z-]*\)", *\([^,]*\),.*/\1 \2/p' "$s/src/model/algo.def" |
        awk -v b="$bit" '{ for (i = 2; i <= NF; i++) if ($i == b || $i == "LOGP_COLL_ALL_BITS") { print $1; next } }' | sort)
    got=$(awk -v c="$coll" 'NR > 1 { n = split($2, cs, ","); for (i = 1; i <= n; i++) if (cs[i] == c) print $1 }' "$out" | sort)
    [ -n "$want" ] && [ "$want" = "$got" ] && ok "algorithms: the $coll column is algo.def's" ||
        ko "algorithms: $coll listed for '$(echo $got)', algo.def says '$(echo $want)'"
    # `algorithms COLL`, what scripts read: the same names but native and auto, one a line
    names=$("$cli" algorithms "$coll" | sort)
    [ -n "$names" ] && [ "$names" = "$(printf '%s\n' "$want" | grep -vx 'native\|auto')" ] &&
        ok "algorithms $coll: its names but native and auto" || ko "algorithms $coll: '$(echo $names)'"
done
"$cli" algorithms gather >/dev/null 2>"$err" && ko "algorithms gather: accepted" ||
    { grep -q "gather: not a collective" "$err" && ok "algorithms gather: not a collective, said"; } || ko "algorithms gather: message"

# The lists written by hand name exactly the registry's algorithms per
# collective (the man pages list none: they point to `pmpi-logp algorithms`).
# Pairs "collective name", sorted: the registry's from the CLI's output.
awk 'NR > 1 { n = split($2, c, ","); for (i = 1; i <= n; i++) print c[i], $1 }' "$out" | sort -u >"$out.reg"
# same_algorithms WHAT: the pairs in $out.doc against the registry's
same_algorithms() {
    missing=$(sort -u "$out.doc" | comm -23 "$out.reg" - | tr '\n' ',' | sed 's/,$//; s/,/, /g')
    extra=$(sort -u "$out.doc" | comm -13 "$out.reg" - | tr '\n' ',' | sed 's/,$//; s/,/, /g')
    if [ -z "$missing$extra" ] && [ -s "$out.doc" ]; then
        ok "$1 names the registry's algorithms per collective"
    else
        ko "$1 does not name the registry's algorithms per collective: missing ${missing:-nothing}; extra ${extra:-nothing}"
    fi
}
# README.md's table under "### Algorithms": | `name`, `name` | bcast, reduce (or all) | ... |
awk -F'|' '/^### Algorithms/ { f = 1; next } f && /^#/ { exit } f && /^\| *`/ {
    colls = $3; gsub(/ /, "", colls); if (colls == "all") colls = "bcast,reduce,alltoall,allreduce,alltoallv"
    n = split(colls, c, ",")
    for (names = $2; match(names, /`[^`]*`/); names = substr(names, RSTART + RLENGTH))
        for (i = 1; i <= n; i++) print c[i], substr(names, RSTART + 1, RLENGTH - 2)
}' "$s/README.md" >"$out.doc"
same_algorithms "README.md's algorithm table"
# tuning/template.conf: "#   reduce   algorithm: name name", continued on
# "#            name name" lines until the next key
awk '!/^#/ || /^#   [a-z_]/ { coll = "" }
/^#   (bcast|reduce|alltoall|allreduce|alltoallv) +algorithm:/ { coll = $2; sub(/^.*algorithm:/, "#") }
coll { sub(/^#/, ""); for (i = 1; i <= NF; i++) print coll, $i }
' "$s/tuning/template.conf" >"$out.doc"
same_algorithms "tuning/template.conf's algorithm list"
echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
