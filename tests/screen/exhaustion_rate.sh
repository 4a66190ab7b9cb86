#!/bin/sh
# memtop-test: alone
# The machine's forecast at a known rate: a child grows 256 MiB/s for 40 s (10 GiB, the
# cap). From 30 s on, JSON's exhaustion_s is within 10 % of the truth, (mem_available_kb +
# swap_free_kb of that line) / the rate they shrink, fitted as the forecast says it fits
# (doc/forecasts.md) over this test's own samples of /proc/meminfo (on a busy machine the
# child grows slower than asked, and slows as it grows), and the header shows "memory
# lasts" in every refresh (one capture a second, each counted) until the growth stops.
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

# the room left, as /proc/meminfo has it (what the forecast fits), with the wall clock:
# sampled every half second from the start, for the truth of each line
room() { awk '$1 == "MemAvailable:" || $1 == "SwapFree:" { s += $2 } END { print s }' /proc/meminfo; }
sample() { echo "$(date +%s.%N) $(room)" >>"$tmp/room"; }
i=0
while [ $i -lt 60 ]; do
	sample
	sleep 0.5
	i=$((i + 1))
done
# from 30 s until it stops: one capture a second
page_kb=$(($(getconf PAGESIZE) / 1024))
rss_at() { awk -v p="$page_kb" '{ print $2 * p }' "/proc/$child/statm" 2>/dev/null; }
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
	sample
	sleep 0.5
	sample
	sleep 0.5
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
# JSON: the lines from 30 s of growth to its stop (2 s before the child started, 1 s a
# line). The truth of a line: its room left over the rate the room shrank, fitted (least
# squares) over this test's samples of the 20 s before it, or of the minute before it
# where the two fits are within a tenth (doc/forecasts.md: the last minute's fit, the
# last 20 s' where the trend changed)
jq -r '[.ts, (.system.exhaustion_s // "null"), .system.mem_available_kb + .system.swap_free_kb] | @tsv' \
	"$tmp/json" >"$tmp/tsv"
awk -F'\t' '
	function slope(from, to,   i, n, sx, sy, sxx, sxy) {
		n = sx = sy = sxx = sxy = 0
		for (i = 1; i <= ns; i++)
			if (t[i] >= from && t[i] <= to) { n++; sx += t[i]; sy += r[i]; sxx += t[i] * t[i]; sxy += t[i] * r[i] }
		if (n < 5 || n * sxx - sx * sx == 0) return 0
		return -(n * sxy - sx * sy) / (n * sxx - sx * sx)
	}
	FILENAME == ARGV[1] { split($0, f, " "); if (!ns) base = f[1]; t[++ns] = f[1] - base; r[ns] = f[2]; next }
	FNR >= 33 && FNR <= 41 { n++; now = $1 - base
		recent = slope(now - 20, now); minute = slope(now - 60, now)
		rate = (minute > 0 && recent > 0 && (minute - recent) / recent < 0.1 && (recent - minute) / recent < 0.1) ? minute : recent
		want = rate > 0 ? $3 / rate : 0
		if ($2 == "null" || want == 0 || $2 < want * 0.9 || $2 > want * 1.1) { printf "FAIL: line %d: exhaustion_s %s vs %.1f (%.0f KiB/s)\n", FNR, $2, want, rate; bad = 1 }
		else printf "line %d: exhaustion_s %s, truth %.1f (%.0f KiB/s)\n", FNR, $2, want, rate }
	END { if (n < 5) { print "FAIL: only " n " lines"; exit 1 } exit bad }' "$tmp/room" "$tmp/tsv" || exit 1
