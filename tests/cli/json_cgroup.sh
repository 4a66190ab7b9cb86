#!/bin/sh
# JSON gives every process's memory cgroup (key cgroup) without the CGROUP column shown: as
# /proc/PID/cgroup names it (the memory controller's line on v1, 0:: on v2), for each
# process whose cgroup did not change around memtop's read.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

memcgs() { # pid, a tab, its memory cgroup: one line per process
	for f in /proc/[0-9]*/cgroup; do
		p=${f#/proc/}
		awk -F: -v p="${p%/cgroup}" '
			{ n = split($2, c, ","); for (i = 1; i <= n; i++) if (c[i] == "memory") v1 = $3 }
			$1 == "0" && $2 == "" { v2 = $3 }
			END { if (v1 != "" || v2 != "") print p "\t" (v1 != "" ? v1 : v2) }' "$f" 2>/dev/null
	done | sort
}
memcgs >"$tmp/before"
"$MEMTOP" --json -n 1 >"$tmp/out" || fail "memtop --json exited $?"
memcgs >"$tmp/after"
jq -r '.processes[] | "\(.pid)\t\(.cgroup)"' "$tmp/out" | sort >"$tmp/json" || fail "not JSON"
[ "$(jq '[.processes[] | has("cgroup")] | all' "$tmp/out")" = true ] ||
	fail "a process without the cgroup key"
# the processes alive throughout, in the same cgroup before and after
comm -12 "$tmp/before" "$tmp/after" >"$tmp/steady"
n=$(awk -F'\t' 'NR == FNR { want[$1] = $2; next }
	($1 in want) { n++; if (want[$1] != $2) { print "pid " $1 ": JSON " $2 ", /proc " want[$1] > "/dev/stderr"; bad++ } }
	END { print n + 0; exit bad > 0 }' "$tmp/steady" "$tmp/json") || fail "cgroups differ"
[ "$n" -ge 5 ] || fail "only $n processes compared"
nulls=$(jq '[.processes[] | select(.cgroup == null)] | length' "$tmp/out")
echo "ok $n processes' cgroup as /proc/PID/cgroup gives it ($nulls null: gone meanwhile)"
