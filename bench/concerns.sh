#!/bin/sh
# What each BPF concern costs to load: the CPU (user + sys, from wait4()) of a one-refresh
# `memtop --json -n 1` (which loads before its refresh) with each concern alone
# (MEMTOP_BPF_ONLY=name), with the object and none of its programs (MEMTOP_BPF_ONLY=""),
# with all of them, and with --no-bpf; interleaved in each round, medians over the rounds.
# A concern's load cost = its run's median - the median of the run with no program. Prints
# figures; it is not a test.
#
#   sh bench/concerns.sh            ROUNDS=11 sh bench/concerns.sh
#
# Knobs: ROUNDS (9), MEMTOP (build/memtop).
set -eu
cd "$(dirname "$0")/.."
. bench/median.inc
ROUNDS=${ROUNDS:-9}
MEMTOP=${MEMTOP:-build/memtop}
HELPER=build/bench/idle_procs
[ -x "$HELPER" ] || make --no-print-directory "$HELPER" >/dev/null
tmp=$(mktemp -d /tmp/memtop-concerns.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
CONFIGS="no-bpf none bpf_oom bpf_reclaim bpf_swapin bpf_tasks bpf_cgroup_iter all"

run() {
	case $1 in
	no-bpf) "$HELPER" rusage "$MEMTOP" --json -n 1 --no-bpf ;;
	none) "$HELPER" rusage env MEMTOP_BPF_ONLY= "$MEMTOP" --json -n 1 ;;
	all) "$HELPER" rusage env -u MEMTOP_BPF_ONLY "$MEMTOP" --json -n 1 ;;
	*) "$HELPER" rusage env MEMTOP_BPF_ONLY="$1" "$MEMTOP" --json -n 1 ;;
	esac
}

r=0
while [ $r -lt "$ROUNDS" ]; do
	for c in $CONFIGS; do
		run "$c" | awk -v c="$c" '{ printf "%s %.3f\n", c, ($1 + $2) / 1000 }' >>"$tmp/rows"
	done
	r=$((r + 1))
done
echo "memtop --json -n 1, CPU ms (user + sys), $ROUNDS interleaved rounds, $(ls -d /proc/[0-9]* | wc -l) processes"
awk -v configs="$CONFIGS" "$MEDIAN_AWK"'
	{ v[$1, ++n[$1]] = $2 }
	function median_c(c,    i, a) { for (i = 1; i <= n[c]; i++) a[i] = v[c, i]; return median(a, n[c]) }
	END {
		m = split(configs, cs, " ")
		base = median_c("none")
		printf "%-16s %9s %12s\n", "concern", "median", "load cost"
		for (i = 1; i <= m; i++) {
			c = cs[i]
			med = median_c(c)
			if (c == "no-bpf" || c == "none")
				printf "%-16s %9.1f %12s\n", c, med, "-"
			else
				printf "%-16s %9.1f %12.1f\n", c, med, med - base
		}
	}' "$tmp/rows"
