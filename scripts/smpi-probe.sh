#!/bin/sh
# shellcheck disable=SC2154 # osim, lat, bw: set by smpi_platform (smpi-common.sh)
# pmpi-logp-probe on simulated platforms (issue 38, item 3): platforms drawn
# at random (scripts/smpi-fidelity.sh's draws and generator), each built in
# three kinds that differ only in how a host's link treats transfers in
# flight: `cluster` (smpi_platform's cluster: private split-duplex links,
# transfers share each direction's bandwidth), `splitduplex` (the same as a
# full routing zone) and `fatpipe` (links without sharing: every transfer
# at full bandwidth).  The probe runs on 5 simulated hosts; its L, o, g, G
# against the platform's own LogGP parameters (smpi-common.sh's
# model.conf; L + 17 G: SMPI's 16-byte envelope), and its `network` key against the kind: shared for the
# sharing kinds, loggp for fatpipe (no interface limit: LogGP's one
# transfer at a time is the nearer of the two models, and the only one
# that lets a transfer end before the others).
#
#   sh scripts/smpi-probe.sh [OUT]
#   env: SEED=1 PLATFORMS=12 TOL=0.02 (the relative error allowed on L, o, g, G)
# Writes OUT/probe.txt (default docs/results/smpi-probe) and fails if a
# key does not match its kind or a value is off by more than TOL.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/smpi-common.sh"
SEED=${SEED:-1}
PLATFORMS=${PLATFORMS:-12}
TOL=${TOL:-0.02}
OUT=${1:-$top/docs/results/smpi-probe}
mkdir -p "$OUT"
smpi_need
"$top/scripts/setup.sh" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$top" && smpicc -O2 -D_POSIX_C_SOURCE=200809L -o "$work/probe" src/tools/pmpi-logp-probe.c 2>"$work/cc.log") ||
    { cat "$work/cc.log"; exit 1; }

# zone POLICY: 5 hosts, each with a private link of that sharing policy, a
# route crossing the two hosts' links (as smpi_platform's cluster)
zone() {
    printf "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    printf '<platform version="4.1">\n<zone id="z" routing="Full">\n'
    for h in 0 1 2 3 4; do
        printf '  <host id="n%d" speed="1Gf"/><link id="l%d" bandwidth="%s" latency="%s" sharing_policy="%s"/>\n' \
            "$h" "$h" "$bw" "$lat" "$1"
    done
    for h in 0 1 2 3 4; do for j in 0 1 2 3 4; do
        if [ "$h" != "$j" ] && [ "$1" = SPLITDUPLEX ]; then
            printf '  <route src="n%d" dst="n%d" symmetrical="NO"><link_ctn id="l%d" direction="UP"/><link_ctn id="l%d" direction="DOWN"/></route>\n' \
                "$h" "$j" "$h" "$j"
        elif [ "$h" -lt "$j" ]; then
            printf '  <route src="n%d" dst="n%d"><link_ctn id="l%d"/><link_ctn id="l%d"/></route>\n' "$h" "$j" "$h" "$j"
        fi
    done; done
    printf '</zone>\n</platform>\n'
}

# val FILE KEY: the number of `KEY = <number><unit>` in a tuning file
val() { sed -n "s/^$2 = \([0-9.e+-]*\).*/\1/p" "$1" | head -1; }

# off WANT GOT: |GOT / WANT - 1| (GOT alone when WANT is 0)
off() { awk -v w="$1" -v g="$2" 'BEGIN { e = w > 0 ? g / w - 1 : g; printf "%.4f", e < 0 ? -e : e }'; }

fail=0
{
    echo "# pmpi-logp-probe in SMPI: seed $SEED, $PLATFORMS platforms x 3 kinds, 5 hosts (sh scripts/smpi-probe.sh)"
    echo "# platform kind | platform L o g G (us, ns/B) | probe L o g G | worst error | network (want) | slowed together | ok"
} >"$OUT/probe.txt"
i=0
draw=0
while [ "$i" -lt "$PLATFORMS" ]; do
    smpi_next_platform "$top" "$SEED" "" "$work"
    i=$((i + 1))
    sed 's|<cluster |<cluster sharing_policy="SPLITDUPLEX" |' "$work/platform.xml" >"$work/cluster.xml"
    zone SPLITDUPLEX >"$work/splitduplex.xml"
    zone FATPIPE >"$work/fatpipe.xml"
    # SMPI adds a 16-byte envelope to every message: m bytes cost what
    # the model charges m + 17 bytes (inj(m) = (m - 1) G), so the probe's
    # small messages see L + 17 G
    wL=$(awk -v L="$(val "$work/model.conf" L)" -v G="$(val "$work/model.conf" G)" 'BEGIN { printf "%.6g", L + 17 * G / 1000 }')
    wo=$(val "$work/model.conf" o); wg=$(val "$work/model.conf" g); wG=$(val "$work/model.conf" G)
    for kind in cluster splitduplex fatpipe; do
        want=shared; [ "$kind" = fatpipe ] && want=loggp
        # shellcheck disable=SC2046
        if ! (cd "$work" && smpirun -np 5 -platform "$kind.xml" $(smpi_flags "$osim") ./probe --reps 3 --out probe.conf \
            >/dev/null 2>"$work/smpi.log"); then
            echo "platform $i $kind | the probe failed: $(grep -m1 -i 'error\|exception' "$work/smpi.log") | no" >>"$OUT/probe.txt"
            fail=1
            rm -f "$work/probe.conf"
            touch "$work/probe.conf"
        fi
        gL=$(val "$work/probe.conf" L); go=$(val "$work/probe.conf" o); gg=$(val "$work/probe.conf" g); gG=$(val "$work/probe.conf" G)
        net=$(sed -n 's/^network = \([a-z]*\).*/\1/p' "$work/probe.conf")
        how=$(sed -n 's/^network = .*: slowed \([0-9.]*\), together \([0-9.]*\) .*/\1 \2/p' "$work/probe.conf")
        [ -s "$work/probe.conf" ] || continue
        worst=$(printf '%s\n' "$(off "$wL" "$gL")" "$(off "$wo" "$go")" "$(off "$wg" "$gg")" "$(off "$wG" "$gG")" | sort -g | tail -1)
        ok=yes
        [ "$net" = "$want" ] || ok=no
        awk -v w="$worst" -v t="$TOL" 'BEGIN { exit !(w > t) }' && ok=no
        [ $ok = yes ] || fail=1
        echo "platform $i $kind | $wL $wo $wg $wG | $gL $go $gg $gG | $worst | ${net:-none} ($want) | $how | $ok" >>"$OUT/probe.txt"
    done
done
cat "$OUT/probe.txt"
if [ $fail -eq 0 ]; then
    echo "smpi-probe: every key matches its platform, every value within $TOL"
else
    echo "smpi-probe: FAILED (lines ending in 'no')"
fi
exit $fail
