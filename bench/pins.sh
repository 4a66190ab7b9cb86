#!/bin/sh
# What a memtop started beside a service with --pin costs: the CPU (user + sys, from
# wait4()) of a one-refresh `memtop --json -n 1` (which loads, or takes the pinned
# programs, before its refresh) and of `memtop -b -n 1`, without and with a service
# (`memtop --record --pin`) running, beside `top -b -n 1`; in each round the runs without
# the service, then the service started and the runs with it, then it stopped. Medians
# over the rounds. As root; prints figures, it is not a test.
#
#   sh bench/pins.sh            ROUNDS=11 sh bench/pins.sh
#
# Knobs: ROUNDS (9), MEMTOP (build/memtop), PROCS (0: idle processes added first, by
# build/bench/idle_procs).
set -eu
cd "$(dirname "$0")/.."
. bench/median.inc
ROUNDS=${ROUNDS:-9}
MEMTOP=${MEMTOP:-build/memtop}
HELPER=build/bench/idle_procs
[ -x "$HELPER" ] || make --no-print-directory "$HELPER" >/dev/null
[ "$(id -u)" = 0 ] || { echo "bench/pins.sh: needs root" >&2; exit 1; }
tmp=$(mktemp -d /tmp/memtop-pins.XXXXXX)
svc= spawner=
. bench/idle.inc
trap '[ -n "$svc" ] && kill "$svc"; stop_spawner; rm -rf "$tmp"' EXIT
if [ "${PROCS:-0}" -gt 0 ]; then
	"$HELPER" spawn "$PROCS" &
	spawner=$!
	i=0
	while [ "$(count_idle "$spawner")" -lt "$PROCS" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
fi

cpu() { "$HELPER" rusage "$@" | awk '{ printf "%.3f\n", ($1 + $2) / 1000 }'; }
run() { # NAME CMD...
	name=$1
	shift
	printf '%s %s\n' "$name" "$(cpu "$@")" >>"$tmp/rows"
}

r=0
while [ $r -lt "$ROUNDS" ]; do
	run top top -b -n 1
	run json-own "$MEMTOP" --json -n 1
	run b1-own "$MEMTOP" -b -n 1
	"$MEMTOP" --record "$tmp/svc.rec" --pin -d 1 2>"$tmp/svc.err" &
	svc=$!
	i=0
	while [ ! -e /sys/fs/bpf/memtop/meta ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e /sys/fs/bpf/memtop/meta ] || { echo "the service pinned nothing: $(cat "$tmp/svc.err")" >&2; exit 1; }
	"$MEMTOP" --json -n 1 | grep -q "BPF programs of memtop $svc" || { echo "not shared" >&2; exit 1; }
	run json-shared "$MEMTOP" --json -n 1
	run b1-shared "$MEMTOP" -b -n 1
	kill "$svc"
	wait "$svc" || true
	svc=
	rm -f "$tmp/svc.rec"
	r=$((r + 1))
done
echo "CPU ms (user + sys), $ROUNDS interleaved rounds, $(ls -d /proc/[0-9]* | wc -l) processes"
awk "$MEDIAN_AWK"'
	{ v[$1, ++n[$1]] = $2; if (!seen[$1]++) order[++m] = $1 }
	function median_c(c,    i, a) { for (i = 1; i <= n[c]; i++) a[i] = v[c, i]; return median(a, n[c]) }
	END {
		top = median_c("top")
		printf "%-12s %9s %9s\n", "run", "median", "/ top"
		for (i = 1; i <= m; i++)
			printf "%-12s %9.1f %9.2f\n", order[i], median_c(order[i]), median_c(order[i]) / top
	}' "$tmp/rows"
