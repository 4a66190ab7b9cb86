#!/bin/sh
# Fault rates: a child faulting at a steady pace shows that pace in minflt_per_s, and
# pgfault_per_s x interval_s adds up to what /proc/vmstat counted around the run.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

start_child 0 20000
sleep 0.2

now() { date +%s.%N; }
minflt() { awk '{ print $10 }' /proc/$child/stat; } # no spaces in its comm
pgfault() { awk '$1 == "pgfault" { print $2 }' /proc/vmstat; }

t0=$(now) c0=$(minflt) v0=$(pgfault)
"$MEMTOP" --json -n 6 -d 0.25 -p "$child" >"$tmp/out" || fail "memtop --json exited $?"
t1=$(now) c1=$(minflt) v1=$(pgfault)

# the first refresh counts since boot; the other five cover about 1.25 s
jq -s -r --argjson pid "$child" '. as $l | range(1; length) as $k | $l[$k] | [.interval_s,
	.system.pgfault_per_s, .system.pgfault, (.processes[] | select(.pid == $pid) | .minflt_per_s),
	.ts - $l[$k - 1].ts] | @tsv' "$tmp/out" >"$tmp/rates"
[ "$(wc -l <"$tmp/rates")" -eq 5 ] || fail "expected 5 later refreshes with pid $child: $(cat "$tmp/out")"
first_pgfault=$(jq -s '.[0].system.pgfault' "$tmp/out")
cat "$tmp/rates"

awk -v t0="$t0" -v t1="$t1" -v c0="$c0" -v c1="$c1" -v v0="$v0" -v v1="$v1" \
	-v prev="$first_pgfault" '
	function bad(msg) { print "FAIL: " msg; err = 1; exit 1 }
	{
		dt = $1; sys_rate = $2; pgfault = $3; rate = $4
		# the time between the lines, however long a busy machine made it
		if (dt < 0.05 || dt < $5 - 0.5 || dt > $5 + 0.5)
			bad("interval_s " dt " for -d 0.25, lines " $5 " s apart")
		if (rate <= 0) bad("the faulting child shows minflt_per_s " rate)
		# each refresh: the rate is the counter delta over the interval
		d = pgfault - prev
		if (sys_rate * dt < d - 1 - d * 0.01 || sys_rate * dt > d + 1 + d * 0.01)
			bad("pgfault_per_s " sys_rate " x interval_s " dt " is not the pgfault delta " d)
		prev = pgfault; span += dt; child += rate * dt; sys += sys_rate * dt
	}
	END {
		if (err) exit 1
		pace = (c1 - c0) / (t1 - t0)
		printf "child: memtop %.0f faults in %.2f s (%.0f/s); /proc says %.0f/s\n", child, span, child / span, pace
		printf "system: memtop %.0f faults; vmstat delta around the run %d\n", sys, v1 - v0
		if (child > c1 - c0 + 5) bad("memtop counts more child faults than happened around the run")
		if (child / span < 0.6 * pace || child / span > 1.5 * pace)
			bad("child minflt_per_s averages " child / span "/s, /proc/PID/stat shows " pace "/s")
		if (sys > v1 - v0 + 5) bad("memtop counts more system faults than /proc/vmstat around the run")
		# memtop reads /proc/vmstat a few ms before the stat file of the child in a refresh, so
		# the two windows are a few ms apart: allow 2 %
		if (sys < 0.98 * child - 5) bad("system pgfault_per_s adds up to less than the child alone")
	}' "$tmp/rates" || exit 1
