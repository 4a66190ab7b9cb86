#!/bin/sh
# The cgroup view's cost: CPU per refresh of memtop --json with and without --cgroups
# (every cgroup column: memory.stat, cgroup.procs and the small files of each cgroup, the
# BPF per-cgroup reclaim stalls and OOM kills), with NCG memory cgroups made for it, each
# holding one idle process, and optionally NPROCS more idle processes outside them.
# Interleaved in each round; prints the medians and the median over rounds of the ratio
# (target: within 1.5x of the table without the view). As root (it makes cgroups; they and
# their processes are removed on exit, also if the script is killed).
#
#   sudo sh bench/cgroups.sh                 (or make bench)
#   NPROCS=2000 sh bench/cgroups.sh
#
# Knobs: NCG (200), NPROCS (0), ROUNDS (5), REFRESHES (101), DELAY (0.1), MEMTOP
# (build/memtop), MEMTOP_ARGS (extra options, e.g. --no-bpf), BASE (another memtop build:
# its --json --cgroups measured too, in the same rounds, for a change's before and after).
# CPU per refresh = (CPU(N refreshes) - CPU(1 refresh)) / (N - 1), user + sys from wait4().
# The start-up (about 70 ms) varies by a few ms from run to run, which N - 1 divides: with
# 100 refreshes that is a few hundredths of a ms a refresh, about a tenth of the view's cost.
set -eu
cd "$(dirname "$0")/.."
. bench/median.inc
NCG=${NCG:-200}
NPROCS=${NPROCS:-0}
ROUNDS=${ROUNDS:-5}
REFRESHES=${REFRESHES:-101}
DELAY=${DELAY:-0.1}
MEMTOP=${MEMTOP:-build/memtop}
MEMTOP_ARGS=${MEMTOP_ARGS:-}
BASE=${BASE:-}
HELPER=build/bench/idle_procs

if [ "$(id -u)" != 0 ]; then
	echo "cgroups.sh: needs root (it makes memory cgroups); skipped"
	exit 0
fi
if [ -d /sys/fs/cgroup/memory ]; then
	root=/sys/fs/cgroup/memory
elif grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	root=/sys/fs/cgroup
else
	echo "cgroups.sh: no memory cgroup controller to make cgroups in; skipped"
	exit 0
fi
if [ ! -x "$MEMTOP" ]; then
	echo "cgroups.sh: $MEMTOP is missing: run make build/memtop (or make bench)" >&2
	exit 1
fi
if ! "$MEMTOP" --json -n 1 --cgroups >/dev/null 2>&1; then
	echo "cgroups.sh: $MEMTOP has no --cgroups (the cgroup views); skipped"
	exit 0
fi
mkdir -p build/bench
${CC:-cc} -O2 -Wall -Wextra -Werror -D_GNU_SOURCE bench/idle_procs.c -o "$HELPER"

tmp=$(mktemp -d /tmp/memtop-cgbench.XXXXXX)
top=$root/memtop-bench-$$
kids="" spawner=""
cleanup() {
	trap - EXIT INT TERM HUP
	[ -n "$kids" ] && kill -9 $kids 2>/dev/null
	[ -n "$spawner" ] && kill -TERM "$spawner" 2>/dev/null
	wait 2>/dev/null || true
	for d in "$top"/cg* "$top"; do
		i=0
		while [ -d "$d" ] && ! rmdir "$d" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

mkdir "$top"
i=0
while [ $i -lt "$NCG" ]; do
	d=$(printf '%s/cg%03d' "$top" $i)
	mkdir "$d"
	sh -c 'echo $$ >"$0/cgroup.procs" && exec sleep 100000' "$d" &
	kids="$kids $!"
	i=$((i + 1))
done
if [ "$NPROCS" -gt 0 ]; then
	"$HELPER" spawn "$NPROCS" >"$tmp/ready" &
	spawner=$!
	until grep -q '^ready' "$tmp/ready" 2>/dev/null; do sleep 0.1; done
fi
# every idle process in its cgroup before measuring
i=0
until [ "$(cat "$top"/cg*/cgroup.procs | wc -l)" -ge "$NCG" ]; do
	[ $i -lt 100 ] || { echo "cgroups.sh: the idle processes did not start" >&2; exit 1; }
	sleep 0.1
	i=$((i + 1))
done

# shellcheck disable=SC2086 # MEMTOP_ARGS is a list of options
listed=$("$MEMTOP" $MEMTOP_ARGS --json -n 1 --cgroups | jq '.cgroups | length' 2>/dev/null || echo "?")
nprocs=$(ls -d /proc/[0-9]* | wc -l)
cpu() { "$HELPER" rusage "$@" | awk '{ print ($1 + $2) / 1000 }'; }
r=0
while [ $r -lt "$ROUNDS" ]; do
	[ -t 2 ] && printf '  round %d/%d\r' $((r + 1)) "$ROUNDS" >&2
	for who in table cgroups ${BASE:+base}; do
		extra="" bin=$MEMTOP
		[ $who = table ] || extra=--cgroups
		[ $who = base ] && bin=$BASE
		# shellcheck disable=SC2086
		one=$(cpu "$bin" $MEMTOP_ARGS --json $extra -n 1 -d "$DELAY")
		# shellcheck disable=SC2086
		many=$(cpu "$bin" $MEMTOP_ARGS --json $extra -n "$REFRESHES" -d "$DELAY")
		echo "$r $who $one $many" | awk -v n="$REFRESHES" '{ printf "%s %s %.3f %.3f\n", $1, $2, ($4 - $3) / (n - 1), $3 - ($4 - $3) / (n - 1) }'
	done >>"$tmp/runs"
	r=$((r + 1))
done
[ -t 2 ] && printf '              \r' >&2

echo "cgroup view cost: $NCG cgroups made (one idle process each), $listed listed by memtop;" \
	"$nprocs processes; $(nproc) CPUs, $(uname -r)"
echo "$ROUNDS interleaved rounds of 1 and $REFRESHES refreshes of memtop --json at -d $DELAY${MEMTOP_ARGS:+ ($MEMTOP_ARGS)}"
awk "$MEDIAN_AWK"'
{
	per[$2] = per[$2] " " $3
	st[$2] = st[$2] " " $4
	v[$2, $1] = $3
	if (!($2 in lo) || $3 + 0 < lo[$2]) lo[$2] = $3
	if (!($2 in hi) || $3 + 0 > hi[$2]) hi[$2] = $3
}
END {
	for (r = 0; (("table", r) in v); r++)
		q = q " " v["cgroups", r] / v["table", r]
	printf "%-22s %10s %12s %11s\n", "", "ms/refresh", "min..max", "start-up ms"
	printf "%-22s %10.2f %5.2f..%-6.2f %11.1f\n", "--json", median_of(per["table"]), lo["table"], hi["table"], median_of(st["table"])
	printf "%-22s %10.2f %5.2f..%-6.2f %11.1f\n", "--json --cgroups", median_of(per["cgroups"]), lo["cgroups"], hi["cgroups"], median_of(st["cgroups"])
	if ("base" in per)
		printf "%-22s %10.2f %5.2f..%-6.2f %11.1f\n", "BASE --json --cgroups", median_of(per["base"]), lo["base"], hi["base"], median_of(st["base"])
	printf "ratio --cgroups / table, median over rounds: %.2f (target <= 1.5)\n", median_of(q)
}' "$tmp/runs"
