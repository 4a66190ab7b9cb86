#!/bin/sh
# What --serve costs: CPU per refresh of memtop --serve next to plain batch mode (-b), with
# about 2000 idle processes on the machine, interleaved rounds, medians; then the cost of a
# scrape: memtop's CPU (every thread, /proc/PID/task/*/schedstat) over SCRAPES GETs of
# /metrics from one curl, between two refreshes, per scrape.
#
# Knobs: NPROCS (2000), ROUNDS (7), REFRESHES (21), DELAY (0.2), SCRAPES (1000).
# CPU per refresh = (CPU(N refreshes) - CPU(1 refresh)) / (N - 1), user + sys from wait4().
set -eu
cd "$(dirname "$0")/.."
. bench/median.inc
B=${B:-build/memtop}
NPROCS=${NPROCS:-2000}
ROUNDS=${ROUNDS:-7}
REFRESHES=${REFRESHES:-21}
DELAY=${DELAY:-0.2}
SCRAPES=${SCRAPES:-1000}
HELPER=build/bench/idle_procs
command -v curl >/dev/null || { echo "serve.sh: needs curl"; exit 1; }
[ -x "$HELPER" ] || make --no-print-directory "$HELPER" >/dev/null
tmp=$(mktemp -d /tmp/memtop-serve.XXXXXX)
spawner="" server=""
. bench/idle.inc
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; stop_spawner; rm -rf "$tmp"' EXIT
"$HELPER" spawn "$NPROCS" >"$tmp/idle" &
spawner=$!
until grep -q ready "$tmp/idle"; do sleep 0.1; done

port=$((20000 + $$ % 20000))
while ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; do port=$((port + 1)); done
cpu() { "$HELPER" rusage "$@" | awk '{ print ($1 + $2) / 1000 }'; }
r=0
while [ $r -lt "$ROUNDS" ]; do
	for mode in batch serve; do
		set -- -b
		[ $mode = serve ] && set -- --serve "127.0.0.1:$port"
		one=$(cpu "$B" "$@" -n 1 -d "$DELAY")
		many=$(cpu "$B" "$@" -n "$REFRESHES" -d "$DELAY")
		echo "$r $mode $(echo "$one $many" | awk -v n="$REFRESHES" '{ printf "%.2f", ($2 - $1) / (n - 1) }')"
	done >>"$tmp/runs"
	r=$((r + 1))
done
echo "CPU ms per refresh, $(count_procs) processes, $ROUNDS interleaved rounds, -d $DELAY"
awk "$MEDIAN_AWK"'{ v[$2] = v[$2] " " $3; if ($2 == "batch") a[$1] = $3; else b[$1] = $3 }
	END { for (r in a) q = q " " b[r] / a[r]
		printf "-b      %6.2f\n--serve %6.2f   serve/batch median over rounds %.3f\n", median_of(v["batch"]), median_of(v["serve"]), median_of(q) }' "$tmp/runs"

# the scrapes: one refresh an hour, so none falls among them
"$B" --serve "127.0.0.1:$port" -d 3600 2>"$tmp/err" &
server=$!
i=0
until curl -sf -o /dev/null "http://127.0.0.1:$port/metrics"; do
	i=$((i + 1))
	[ $i -le 100 ] || { echo "serve.sh: memtop --serve never answered: $(cat "$tmp/err")"; exit 1; }
	sleep 0.1
done
ns() { cat /proc/"$server"/task/*/schedstat | awk '{ s += $1 } END { printf "%.0f", s }'; }
bytes=$(curl -s "http://127.0.0.1:$port/metrics" | wc -c)
i=0
while [ $i -lt "$SCRAPES" ]; do
	echo "url = \"http://127.0.0.1:$port/metrics\""
	echo 'output = "/dev/null"'
	i=$((i + 1))
done >"$tmp/curl.cfg"
before=$(ns)
t0=$(date +%s%N)
curl -s -K "$tmp/curl.cfg"
t1=$(date +%s%N)
after=$(ns)
echo "$SCRAPES scrapes of $bytes bytes: memtop CPU $(awk -v a="$before" -v b="$after" -v n="$SCRAPES" 'BEGIN { printf "%.1f us", (b - a) / n / 1000 }') per scrape, $(awk -v a="$t0" -v b="$t1" -v n="$SCRAPES" 'BEGIN { printf "%.2f ms", (b - a) / n / 1e6 }') per scrape wall (curl included)"
