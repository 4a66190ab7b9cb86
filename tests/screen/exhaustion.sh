#!/bin/sh
# memtop-test: not sanitized
# Time to exhaustion: while a child grows by 64 MiB/s for 30 s, the header says how long
# memory lasts and names a next OOM victim; JSON's system.exhaustion_s is what the figures
# memtop printed say, (mem_available_kb + swap_free_kb) over the rate they fell at in the
# last minute (a least-squares line, within 10 %), and the header says the same within
# 25 %; after the child stops growing the line goes and exhaustion_s is null. The rate is
# not checked against the child's 64 MiB/s: on a busy machine others' memory moves too.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child= json=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; [ -n "$json" ] && kill "$json" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# 1.9 GiB: skip where it would not fit twice over
avail=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
[ "$avail" -gt $((5 * 1024 * 1024)) ] || skip "needs 5 GiB available, has $avail KiB"

tm_start 120 40 "$MEMTOP" -d 1
"$MEMTOP" --json -d 1 -n 600 >"$tmp/json" &
json=$!
wait_for "Tasks" || fail "memtop did not start"
"$HELPERS/grow_child" 64 30 exhaustion-marker >"$tmp/grow" &
child=$!
wait_ready "$tmp/grow" || fail "grow_child never got ready"
started=$(date +%s)

# the forecast needs 20 s of shrinking: look from 22 s until the child stops growing
sleep 22
seen=0
until grep -q stopped "$tmp/grow" || [ $(($(date +%s) - started)) -ge 60 ]; do
	line=$(screen_text | grep -o 'memory lasts [^;]*min at this rate[^│|]*' | head -1)
	if [ -n "$line" ]; then
		seen=$(date +%s.%N)
		echo "screen: $line"
		n=$(echo "$line" | sed -n 's/^memory lasts ~\([0-9]*\) min.*/\1/p')
		[ -n "$n" ] || fail "no minutes in '$line'"
		echo "$line" | grep -q "next OOM victim: [0-9]" || fail "no next victim in '$line'"
		break
	fi
	sleep 1
done
[ "$seen" != 0 ] || fail "the header never said memory lasts N min: $(screen_text | head -8)"

# it stops at 30 s: the line goes within a minute
i=0
until grep -q stopped "$tmp/grow"; do
	i=$((i + 1))
	[ $i -le 120 ] || fail "grow_child did not stop after 30 s"
	sleep 0.5
done
stop=$(date +%s)
wait_gone "memory lasts" 60 || fail "the forecast stayed a minute after growth stopped"
echo "the forecast went $(($(date +%s) - stop)) s after growth stopped"

# JSON: each line with a forecast says (mem_available_kb + swap_free_kb) / the rate of the
# least-squares line through the last minute's lines; some during growth have one; the
# screen's minutes are those of the line nearest in time; once the screen's line went,
# a line comes with null
kill "$child" 2>/dev/null
child=
n0=$(wc -l <"$tmp/json")
i=0
until [ "$(wc -l <"$tmp/json")" -ge $((n0 + 2)) ] &&
	[ "$(tail -n 1 "$tmp/json" | jq .system.exhaustion_s)" = null ]; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "exhaustion_s at the end: $(tail -n 3 "$tmp/json" | jq -c .system.exhaustion_s)"
	sleep 0.1
done
kill "$json" 2>/dev/null
wait "$json" 2>/dev/null
json=
jq -r '[.ts, (.system.exhaustion_s // "null"), .system.mem_available_kb + .system.swap_free_kb,
	(.system.next_victim_pid // "null")] | @tsv' "$tmp/json" >"$tmp/tsv"
awk -v start="$started" -v stop="$stop" -v seen="$seen" -v mins="$n" '
	{ t[NR] = $1; f[NR] = $2; v[NR] = $3; vic[NR] = $4 }
	END {
		for (k = 1; k <= NR; k++) {
			d = seen > t[k] ? seen - t[k] : t[k] - seen
			if (!near || d < near_d) { near = k; near_d = d }
			if (f[k] == "null")
				continue
			st = sv = m = 0
			for (j = k; j >= 1 && t[j] >= t[k] - 60; j--) { st += t[j] - t[k]; sv += v[j]; m++ }
			mt = st / m; mv = sv / m; stt = stv = 0
			for (j = k; j >= 1 && t[j] >= t[k] - 60; j--) {
				stt += (t[j] - t[k] - mt) ^ 2; stv += (t[j] - t[k] - mt) * (v[j] - mv)
			}
			rate = stv / stt
			if (rate >= 0) { printf "FAIL: exhaustion_s %s where the figures rise\n", f[k]; exit 1 }
			want = v[k] / -rate
			if (f[k] < want * 0.9 || f[k] > want * 1.1) {
				printf "FAIL: exhaustion_s %s, the figures printed say %.0f\n", f[k], want; exit 1
			}
			if (vic[k] == "null") { print "FAIL: no next_victim_pid"; exit 1 }
			if (t[k] >= start + 20 && t[k] <= stop) n++
			checked++
		}
		if (!n) { print "FAIL: no exhaustion_s during growth"; exit 1 }
		printf "%d JSON lines with a forecast, %d during growth, each as its figures say\n", checked, n
		if (f[near] == "null") { printf "FAIL: the screen had a forecast, JSON at %.1f none\n", t[near]; exit 1 }
		want = f[near] / 60
		printf "screen ~%d min, JSON at the time %.1f min\n", mins, want
		if (mins < want * 0.75 - 0.5 || mins > want * 1.25 + 0.5) { print "FAIL: not within 25 %"; exit 1 }
	}' "$tmp/tsv" || exit 1
