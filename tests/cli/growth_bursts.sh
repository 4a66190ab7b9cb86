#!/bin/sh
# memtop-test: long
# Growth you can trust: 50 short-lived processes, each growing 200 MiB in 2 s and exiting
# (a few at a time), beside one growing 1 MiB/s for 2 minutes: with -o grow the steady
# grower heads the list once it has a growth (30 s seen), no short-lived one ever has a
# growth_kb_per_min or is marked a leak suspect (leak_suspect), in any line.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v jq >/dev/null || skip "needs jq"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
steady= bursts=
trap '[ -n "$steady" ] && kill "$steady" 2>/dev/null; [ -n "$bursts" ] && kill "$bursts" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

"$HELPERS/grow_child" 1 130 steady-grower >"$tmp/steady" &
steady=$!
wait_ready "$tmp/steady" || fail "grow_child never got ready"
# the bursts: 50 of them, 2 at a time, each 100 MiB/s for 2 s, then exit
(
	for i in $(seq 25); do
		"$HELPERS/grow_child" 100 2 burst >/dev/null &
		a=$!
		"$HELPERS/grow_child" 100 2 burst >/dev/null &
		b=$!
		sleep 2.3
		kill $a $b 2>/dev/null
		wait $a $b 2>/dev/null
		sleep 1.5
	done
) &
bursts=$!
"$MEMTOP" --json -n 100 -d 1 -o grow >"$tmp/out" || fail "memtop --json exited $?"

# no burst ever has a growth or is a suspect
jq -r '.processes[] | select(.cmd | test("grow_child 100 2")) |
	[.pid, (.growth_kb_per_min // "null"), (.leak_suspect // false)] | @tsv' "$tmp/out" >"$tmp/bursts"
n=$(cut -f1 "$tmp/bursts" | sort -u | wc -l)
echo "$n burst processes seen"
[ "$n" -ge 20 ] || fail "only $n bursts seen"
awk -F'\t' '$2 != "null" || $3 != "false" { print "FAIL: burst " $1 " growth " $2 " suspect " $3; bad = 1 }
	END { exit bad }' "$tmp/bursts" || exit 1
# from the line at 40 s on, the steady grower heads -o grow at about 1 MiB/s (where another
# long-lived process grew faster during the run, a build's, it comes right after it), and
# no burst ever heads it
jq -r --argjson pid "$steady" '[.processes[0].pid, .processes[0].cmd,
	([.processes[0:3][] | .pid] | index($pid) // "none"),
	((.processes[] | select(.pid == $pid) | .growth_kb_per_min) // "null")] | @tsv' "$tmp/out" >"$tmp/heads"
awk -F'\t' -v pid="$steady" 'NR >= 40 { n++; first += $1 == pid
	if ($2 ~ /grow_child 100 2/ || $3 == "none") { print "line " NR ": head " $1 " " $2; bad++ }
	else if ($4 < 61440 * 0.8 || $4 > 61440 * 1.2) { print "line " NR ": growth " $4; bad++ } }
	END { printf "%d lines from 40 s on, the steady grower first in %d, %d wrong\n", n, first, bad
		exit bad > 0 }' "$tmp/heads" || exit 1
