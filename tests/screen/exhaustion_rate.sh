#!/bin/sh
# memtop-test: alone
# memtop-test: not sanitized
# The machine's forecast at a known rate: a child grows 256 MiB/s for 40 s (10 GiB, the
# cap). From 30 s on, JSON's exhaustion_s is within 10 % of the truth, (mem_available_kb +
# swap_free_kb of that line) / the rate they shrink (MemAvailable + SwapFree in
# /proc/meminfo, read by this test over those seconds: on a busy machine the child grows
# slower than asked, and the kernel's own use moves them too), and the
# header shows "memory lasts" in every refresh (one capture a second, each counted) until
# the growth stops.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v jq >/dev/null || skip "needs jq"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child= json=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; [ -n "$json" ] && kill "$json" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

avail=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
[ "$avail" -gt $((16 * 1024 * 1024)) ] || skip "needs 16 GiB available, has $avail KiB"

tm_start 160 40 "$MEMTOP" -d 1
wait_for "Tasks" || fail "memtop did not start"
"$MEMTOP" --json -d 1 -n 45 >"$tmp/json" &
json=$!
sleep 2
"$HELPERS/grow_child" 256 40 exhaustion-rate >"$tmp/grow" &
child=$!
wait_ready "$tmp/grow" || fail "grow_child never got ready"
started=$(date +%s.%N)

# from 30 s until it stops: one capture a second
sleep 30
page_kb=$(($(getconf PAGESIZE) / 1024))
rss_at() { awk -v p="$page_kb" '{ print $2 * p }' "/proc/$child/statm" 2>/dev/null; }
# the room left, as /proc/meminfo has it: what the forecast fits
room() { awk '$1 == "MemAvailable:" || $1 == "SwapFree:" { s += $2 } END { print s }' /proc/meminfo; }
r0=$(rss_at) m0=$(room) t0=$(date +%s.%N) r1= t1=
shown=0 total=0
while ! grep -q stopped "$tmp/grow" && [ $total -lt 15 ]; do
	total=$((total + 1))
	if screen_text | grep -q "memory lasts ~"; then
		shown=$((shown + 1))
	else
		echo "missing: $(screen_text | head -4)"
	fi
	# the child's RSS while it still grows
	grep -q stopped "$tmp/grow" || { r1=$(rss_at) m1=$(room) t1=$(date +%s.%N); }
	sleep 1
done
[ -n "$r1" ] || fail "the child stopped growing before 31 s"
grew=$(awk -v a="$r0" -v b="$r1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.0f", (b - a) / (e - s) }')
rate=$(awk -v a="$m0" -v b="$m1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.0f", (a - b) / (e - s) }')
echo "the child grew $grew KiB/s from 30 s on (asked: 262144); MemAvailable + SwapFree shrank $rate KiB/s"
[ "$rate" -gt 0 ] || fail "MemAvailable + SwapFree did not shrink from 30 s on ($m0 -> $m1 KiB)"
echo "the forecast was on screen in $shown of $total captures from 30 s on"
[ $total -gt 0 ] && [ $shown = $total ] || fail "missing in $((total - shown)) of $total captures"
kill "$child" 2>/dev/null
child=
wait "$json" 2>/dev/null
json=
# JSON: the lines from 30 s of growth to its stop (2 s before the child started, 1 s a line)
jq -r '[(.system.exhaustion_s // "null"), .system.mem_available_kb + .system.swap_free_kb] | @tsv' \
	"$tmp/json" >"$tmp/tsv"
awk -F'\t' -v rate="$rate" 'NR >= 33 && NR <= 41 { n++; want = $2 / rate
	if ($1 == "null" || $1 < want * 0.9 || $1 > want * 1.1) { print "FAIL: line " NR ": exhaustion_s " $1 " vs " want; bad = 1 }
	else printf "line %d: exhaustion_s %s, truth %.1f\n", NR, $1, want }
	END { if (n < 5) { print "FAIL: only " n " lines"; exit 1 } exit bad }' "$tmp/tsv" || exit 1
