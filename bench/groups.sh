#!/bin/sh
# What --groups costs the exporter: CPU per refresh of memtop --serve as it is (the top K
# processes), with --groups putting the 2000 idle processes in one group by comm, and with
# --groups putting every process in the group of its argv[0]'s base name by two cmdline
# regular expressions (every process a member: matched at each refresh, its VmSwap read);
# interleaved in each round, medians, and the median over rounds of each against the
# plain --serve.
#
# Knobs: NPROCS (2000), ROUNDS (7), REFRESHES (21), DELAY (0.2).
# CPU per refresh = (CPU(N refreshes) - CPU(1 refresh)) / (N - 1), user + sys from wait4().
set -eu
cd "$(dirname "$0")/.."
. bench/median.inc
B=${B:-build/memtop}
NPROCS=${NPROCS:-2000}
ROUNDS=${ROUNDS:-7}
REFRESHES=${REFRESHES:-21}
DELAY=${DELAY:-0.2}
HELPER=build/bench/idle_procs
[ -x "$HELPER" ] || make --no-print-directory "$HELPER" >/dev/null
tmp=$(mktemp -d /tmp/memtop-groups.XXXXXX)
spawner=""
. bench/idle.inc
trap 'stop_spawner; rm -rf "$tmp"' EXIT
"$HELPER" spawn "$NPROCS" >"$tmp/idle" &
spawner=$!
until grep -q ready "$tmp/idle"; do sleep 0.1; done
printf 'process_names:\n  - name: idle\n    comm: [idle_procs]\n' >"$tmp/one.yaml"
printf 'process_names:\n  - name: "{{.ExeBase}}"\n    cmdline: [".", "^[^ ]"]\n' >"$tmp/all.yaml"

port=$((20000 + $$ % 20000))
while ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; do port=$((port + 1)); done
cpu() { "$HELPER" rusage "$@" | awk '{ print ($1 + $2) / 1000 }'; }
r=0
while [ $r -lt "$ROUNDS" ]; do
	for mode in top one all; do
		set -- --serve "127.0.0.1:$port"
		[ $mode = top ] || set -- "$@" --groups "$tmp/$mode.yaml"
		one=$(cpu "$B" "$@" -n 1 -d "$DELAY")
		many=$(cpu "$B" "$@" -n "$REFRESHES" -d "$DELAY")
		echo "$r $mode $(echo "$one $many" | awk -v n="$REFRESHES" '{ printf "%.2f", ($2 - $1) / (n - 1) }')"
	done >>"$tmp/runs"
	r=$((r + 1))
done
groups=$("$B" --openmetrics --groups "$tmp/all.yaml" | grep -c '^memtop_group_processes{')
echo "CPU ms per refresh, $(count_procs) processes, $ROUNDS interleaved rounds, -d $DELAY"
awk -v g="$groups" "$MEDIAN_AWK"'{ v[$2] = v[$2] " " $3; x[$2, $1] = $3 }
	function ratio(m,  r, q) { for (r = 0; (m, r) in x; r++) q = q " " x[m, r] / x["top", r]; return median_of(q) }
	END {
		printf "%-48s %6.2f\n", "--serve (the top K processes)", median_of(v["top"])
		printf "%-48s %6.2f   %.3fx\n", "--groups: the idle processes, one group by comm", median_of(v["one"]), ratio("one")
		printf "%-48s %6.2f   %.3fx\n", "--groups: every process, " g " groups by cmdline", median_of(v["all"]), ratio("all") }' "$tmp/runs"
