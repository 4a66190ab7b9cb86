#!/bin/sh
# Two memtop builds side by side: CPU per refresh of A and B (-b and --json), interleaved
# in each round, with about 2000 idle processes on the machine. Prints the medians and the
# median over rounds of B / A. For checking that a change costs nothing:
#
#   git worktree add /tmp/base HEAD~5 && make -C /tmp/base build/memtop
#   A=/tmp/base/build/memtop sh bench/compare.sh
#
# Knobs: A (the base build; without it this prints how to run it and exits 0), B
# (build/memtop), NPROCS (2000), ROUNDS (7), REFRESHES (21), DELAY (0.2).
# CPU per refresh = (CPU(N refreshes) - CPU(1 refresh)) / (N - 1), user + sys from wait4().
set -eu
cd "$(dirname "$0")/.."
. bench/median.inc
if [ -z "${A:-}" ]; then
	echo "compare.sh: set A to the memtop binary to compare build/memtop with (see the header)"
	exit 0
fi
B=${B:-build/memtop}
NPROCS=${NPROCS:-2000}
ROUNDS=${ROUNDS:-7}
REFRESHES=${REFRESHES:-21}
DELAY=${DELAY:-0.2}
HELPER=build/bench/idle_procs
[ -x "$HELPER" ] || make --no-print-directory "$HELPER" >/dev/null
tmp=$(mktemp -d /tmp/memtop-compare.XXXXXX)
"$HELPER" spawn "$NPROCS" >"$tmp/idle" &
idle=$!
trap 'kill $idle 2>/dev/null; rm -rf "$tmp"' EXIT
until grep -q ready "$tmp/idle"; do sleep 0.1; done

cpu() { "$HELPER" rusage "$@" | awk '{ print ($1 + $2) / 1000 }'; }
r=0
while [ $r -lt "$ROUNDS" ]; do
	for mode in -b --json; do
		for who in A B; do
			eval bin=\$$who
			one=$(cpu "$bin" $mode -n 1 -d "$DELAY")
			many=$(cpu "$bin" $mode -n "$REFRESHES" -d "$DELAY")
			echo "$r $mode $who $(echo "$one $many" | awk -v n="$REFRESHES" '{ printf "%.2f", ($2 - $1) / (n - 1) }')"
		done
	done >>"$tmp/runs"
	r=$((r + 1))
done
echo "CPU ms per refresh, $NPROCS idle processes, $ROUNDS interleaved rounds; A=$A B=$B"
for mode in -b --json; do
	awk -v m="$mode" "$MEDIAN_AWK"'$2 == m { v[$3] = v[$3] " " $4; if ($3 == "A") a[$1] = $4; else b[$1] = $4 }
	END { for (r in a) q = q " " b[r] / a[r]
		printf "%-7s A %6.1f   B %6.1f   B/A median over rounds %.3f\n", m, median_of(v["A"]), median_of(v["B"]), median_of(q) }' "$tmp/runs"
done
