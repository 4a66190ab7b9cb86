#!/bin/sh
# memtop-test: beside others
# Code loaded with dlopen after the sampler attached. dl_host loads libdl_plug.so and at
# once faults in a loop through plug_inner < plug_touch < host_call < main:
# memtop --stacks, attached before the dlopen, puts at least 90 % of the faults it
# counts in stacks with those four functions in that order, as perf record
# --call-graph dwarf on the same run does for its most common stack. Then the same with
# a dlopen and a dlclose around each call.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
PERF=""
trap 'kill -INT $PERF 2>/dev/null; wait 2>/dev/null; dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available
command -v perf >/dev/null || fail "perf is not installed (scripts/deps.sh installs linux-perf)"
CHAIN="plug_inner,plug_touch,host_call,main"
j() { jq -r "$1" "$tmp/out"; }
# share CHAIN: the share of fault counts in stacks whose user functions hold CHAIN
share() {
	j "([.stacks[] | select(.kind == \"fault\")] | map(.count) | add) as \$all |
	   [.stacks[] | select(.kind == \"fault\" and ([.frames[] | select(.kernel | not) | .symbol // \"?\"] | join(\",\") | contains(\"$1\"))) | .count] |
	   (add // 0) * 100 / \$all | floor"
}
# host MODE PAGES: dl_host MODE 2 PAGES (2 s) under perf and memtop --stacks, which
# attached just before
host() {
	dd_start "$1" 2 "$HELPERS/dl_host" "$2"
	perf record -q -e exceptions:page_fault_user --call-graph dwarf -p "$DD_PID" \
		-o "$tmp/perf.data" >"$tmp/perf.out" 2>&1 &
	PERF=$!
	sleep 1 # perf attaches
	"$MEMTOP" --stacks "$DD_PID:5" --json >"$tmp/out" 2>"$tmp/err" &
	mt=$!
	wait_links $mt $STACKS_LINKS || fail "memtop --stacks did not attach: $(cat "$tmp/err")"
	dd_go
	kill -INT $PERF
	wait $PERF
	PERF=""
	kill -INT $mt
	wait $mt
	dd_stop
	jq -e .stacks "$tmp/out" >/dev/null || fail "memtop --stacks: $(cat "$tmp/err")"
}
# perf_stacks: perf's user stacks, down to main, with their samples, most first
perf_stacks() {
	perf script -i "$tmp/perf.data" -F ip,sym 2>/dev/null |
		awk 'NF == 0 { if (s != "") print s; s = ""; stop = 0; next }
		{ sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym)
		  if ($1 ~ /^ffff/ || stop) next
		  s = s == "" ? sym : s "," sym
		  if (sym == "main") stop = 1 }
		END { if (s != "") print s }' | sort | uniq -c | sort -rn >"$tmp/perf.top"
}
perf_top() { perf_stacks && awk 'NR == 1 { print $2 }' "$tmp/perf.top"; }
# perf_share CHAIN: the percentage of perf's samples in stacks holding CHAIN
perf_share() {
	awk -v c="$1" '{ all += $1; if (index($2, c)) hit += $1 } END { printf "%d\n", all ? hit * 100 / all : 0 }' "$tmp/perf.top"
}

host stay 16
s=$(share "$CHAIN")
[ "$s" -ge 90 ] || fail "dlopen then calls: $s % of faults in $CHAIN: $(j '[.stacks[] | select(.kind == "fault") | [.count, .truncated_reason, [.frames[] | select(.kernel | not) | .symbol // "?"]]][0:4]')"
p=$(perf_top)
[ "$p" = "$CHAIN" ] || fail "perf's top stack $p, not $CHAIN"
echo "dlopen, then calls: $s % of faults in $CHAIN (perf's top stack the same)"

# dlopen, call, dlclose, over and over: the code is unmapped more often than not when
# the stacks are read; named as it was when unwound. Some faults are dlopen's own: the
# share in CHAIN is perf's within 10 points.
host cycle 16
s=$(share "$CHAIN")
p=$(perf_top)
ps=$(perf_share "$CHAIN")
[ "$s" -ge $((ps - 10)) ] && [ "$s" -le $((ps + 10)) ] && [ "$s" -ge 50 ] ||
	fail "dlopen/dlclose loop: $s % of faults in $CHAIN, perf $ps %: $(j '[.stacks[] | select(.kind == "fault") | [.count, .truncated_reason, [.frames[] | select(.kernel | not) | .symbol // "?"]]][0:4]')"
[ "$p" = "$CHAIN" ] || fail "perf's top stack $p, not $CHAIN"
echo "dlopen/dlclose loop: $s % of faults in $CHAIN, perf $ps % (its top stack the same)"
