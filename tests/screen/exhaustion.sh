#!/bin/sh
# memtop-test: alone
# Time to exhaustion: while a child grows by 64 MiB/s for 30 s, the header says memory
# lasts about (MemAvailable + SwapFree) / its growth (within 25 %; the growth as its RSS
# shows it), names a next OOM victim, and JSON's system.exhaustion_s says the same;
# within a minute after the child stops growing the line is gone, and within 30 s after
# that exhaustion_s is null (or, where the machine shrinks by itself, not the child's).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child= json=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; [ -n "$json" ] && kill "$json" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# 1.9 GiB: skip where it would not fit twice over
avail=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
[ "$avail" -gt $((5 * 1024 * 1024)) ] || skip "needs 5 GiB available, has $avail KiB"

tm_start 120 40 "$MEMTOP" -d 1
"$MEMTOP" --json -d 1 -n 200 >"$tmp/json" &
json=$!
wait_for "Tasks" || fail "memtop did not start"
"$HELPERS/grow_child" 64 30 exhaustion-marker >"$tmp/grow" &
child=$!
wait_ready "$tmp/grow" || fail "grow_child never got ready"
started=$(date +%s)
# the child's growth as /proc/PID/statm shows it (on a busy machine slower than asked)
page_kb=$(($(getconf PAGESIZE) / 1024))
rss_at() { awk -v p="$page_kb" '{ print $2 * p }' "/proc/$child/statm"; }
r0=$(rss_at) t0=$(date +%s.%N)

# the forecast needs 20 s of shrinking: look from 22 s to 29 s
sleep 22
rate=$(awk -v a="$r0" -v b="$(rss_at)" -v s="$t0" -v e="$(date +%s.%N)" \
	'BEGIN { printf "%.0f", (b - a) / (e - s) }')
echo "the child grows $rate KiB/s (asked: 65536)"
seen=0
while [ $(($(date +%s) - started)) -lt 29 ]; do
	line=$(screen_text | grep -o 'memory lasts [^;]*min at this rate[^│|]*' | head -1)
	left=$(awk '$1 == "MemAvailable:" || $1 == "SwapFree:" { s += $2 } END { print s }' /proc/meminfo)
	if [ -n "$line" ]; then
		seen=1
		echo "screen: $line (MemAvailable + SwapFree $left KiB)"
		n=$(echo "$line" | sed -n 's/^memory lasts ~\([0-9]*\) min.*/\1/p')
		[ -n "$n" ] || fail "no minutes in '$line'"
		awk -v n="$n" -v left="$left" -v rate="$rate" 'BEGIN {
			want = left / rate / 60
			printf "forecast %d min, (MemAvailable + SwapFree) / the growth = %.1f min\n", n, want
			if (n < want * 0.75 || n > want * 1.25) { print "FAIL: not within 25 %"; exit 1 }
		}' || exit 1
		echo "$line" | grep -q "next OOM victim: [0-9]" || fail "no next victim in '$line'"
		break
	fi
	sleep 1
done
[ $seen = 1 ] || fail "the header never said memory lasts N min: $(screen_text | head -8)"

# it stops at 30 s: the line goes within a minute
while ! grep -q stopped "$tmp/grow" && [ $(($(date +%s) - started)) -lt 50 ]; do
	sleep 0.5
done
grep -q stopped "$tmp/grow" || fail "grow_child did not stop after 30 s"
stop=$(date +%s)
wait_gone "memory lasts" 60 || fail "the forecast stayed a minute after growth stopped"
echo "the forecast went $(($(date +%s) - stop)) s after growth stopped"
# the JSON run (started with the screen, at the same interval) until its last line has
# null, 30 s at most
json_null() { tail -n 1 "$tmp/json" | jq -e '.system.exhaustion_s == null' >/dev/null 2>&1; }
eventually 30 json_null
lines=$(wc -l <"$tmp/json")
kill "$json"
wait "$json" 2>/dev/null
json=
head -n "$lines" "$tmp/json" >"$tmp/json.head"

# JSON: a line during growth says within 25 % of (mem_available_kb + swap_free_kb) / rate;
# its last line, within 30 s after the screen's forecast went (the same rules on samples
# taken within a second of the screen's), has null, unless the machine itself went on
# shrinking without the child: then the room fell, within the 40 lines before (the fit of
# 20 s, held up to 20 s), by half or more of what 20 s at the forecast's rate take (a
# forecast still made of the child's growth, which stopped, fails this)
jq -r '[(.system.exhaustion_s // "null"), .system.mem_available_kb + .system.swap_free_kb,
	(.system.next_victim_pid // "null")] | @tsv' "$tmp/json.head" >"$tmp/tsv"
awk -v rate="$rate" 'NR >= 25 && NR <= 31 && $1 != "null" { n++; want = $2 / rate
	if ($1 < want * 0.75 || $1 > want * 1.25) { print "FAIL: exhaustion_s " $1 " vs " want; exit 1 }
	if ($3 == "null") { print "FAIL: no next_victim_pid"; exit 1 } }
	END { if (!n) { print "FAIL: no exhaustion_s during growth"; exit 1 }
		print n " JSON lines during growth agree" }' "$tmp/tsv" || exit 1
awk '{ room[NR] = $2; e[NR] = $1 } END {
	if (e[NR] == "null") { print "exhaustion_s null at the end"; exit 0 }
	top = 0
	for (i = NR - 40; i < NR; i++) if (room[i] > top) top = room[i]
	want = 0.5 * 20 * room[NR] / e[NR]
	if (top - room[NR] < want) {
		printf "FAIL: exhaustion_s %s at the end, but the room fell %d KiB in the 40 lines before, not %d\n",
			e[NR], top - room[NR], want
		exit 1
	}
	printf "exhaustion_s %s at the end: the machine shrank from %d to %d KiB without the child\n",
		e[NR], top, room[NR] }' "$tmp/tsv" || exit 1
