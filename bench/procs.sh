#!/bin/sh
# Process-table cost: CPU time per refresh of memtop (-b and --json) against procps top -b,
# with about 2000 idle processes on the machine. Prints figures; it is not a test.
#
#   sh bench/procs.sh            (or: make bench)
#
# Knobs (environment): NPROCS (idle processes to add, 2000), ROUNDS (interleaved rounds, 7),
# REFRESHES (refreshes in the long run, 21), DELAY (seconds between refreshes, 0.2),
# MEMTOP (binary, build/memtop), MEMTOP_ARGS (extra memtop options, e.g. --no-bpf).
#
# CPU per refresh = (CPU(N refreshes) - CPU(1 refresh)) / (N - 1), so start-up is left out;
# start-up = CPU(1 refresh) - CPU per refresh. CPU is user+sys of the child from wait4().
# Medians over the rounds; min..max is the spread of the per-refresh figure. Peak RSS is the
# largest ru_maxrss (start-up included); end RSS is the median VmRSS near the end of the
# N-refresh runs.
# Each round runs memtop -b, top -b, memtop --json (1 refresh, then N), in turn.
set -eu

cd "$(dirname "$0")/.."
. bench/median.inc
NPROCS=${NPROCS:-2000}
ROUNDS=${ROUNDS:-7}
REFRESHES=${REFRESHES:-21}
DELAY=${DELAY:-0.2}
MEMTOP=${MEMTOP:-build/memtop}
MEMTOP_ARGS=${MEMTOP_ARGS:-}
TOP=${TOP:-top}
HELPER=build/bench/idle_procs

if [ "$REFRESHES" -lt 2 ] || [ "$ROUNDS" -lt 1 ]; then
	echo "procs.sh: REFRESHES must be at least 2 and ROUNDS at least 1" >&2
	exit 2
fi
if [ ! -x "$MEMTOP" ]; then
	echo "procs.sh: $MEMTOP is missing: run make build/memtop (or make bench)" >&2
	exit 1
fi
if ! command -v "$TOP" >/dev/null 2>&1; then
	echo "procs.sh: no top (procps) on this machine" >&2
	exit 1
fi
mkdir -p build/bench # the helper builds in a fraction of a second: always build it
${CC:-cc} -O2 -Wall -Wextra -Werror -D_GNU_SOURCE bench/idle_procs.c -o "$HELPER"

tmp=$(mktemp -d)
spawner=
. bench/idle.inc
cleanup() {
	trap - EXIT INT TERM HUP
	stop_spawner
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

before=$(count_procs)
"$HELPER" spawn "$NPROCS" >"$tmp/ready" &
spawner=$!
i=0
until grep -q '^ready' "$tmp/ready" 2>/dev/null; do
	if ! kill -0 "$spawner" 2>/dev/null || [ $i -ge 600 ]; then
		echo "procs.sh: the idle processes did not start" >&2
		exit 1
	fi
	sleep 0.1
	i=$((i + 1))
done
idle=$(count_idle "$spawner")
nprocs=$(count_procs)
if [ "$idle" -lt $((NPROCS * 95 / 100)) ]; then
	echo "procs.sh: only $idle of $NPROCS idle processes are in /proc" >&2
	exit 1
fi

# measure LABEL N CMD...: appends "LABEL N utime_us stime_us maxrss_kb last_rss_kb" to $tmp/raw
measure() {
	label=$1 n=$2
	shift 2
	# shellcheck disable=SC2046 # the helper prints five numbers
	set -- $("$HELPER" rusage "$@")
	if [ "$4" != 0 ]; then
		echo "procs.sh: $label -n $n exited with status $4" >&2
		exit 1
	fi
	echo "$label $n $1 $2 $3 $5" >>"$tmp/raw"
}

# the empty config dir keeps a user's ~/.toprc out of the figures
mkdir -p "$tmp/home"
run_top() {
	HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home" measure top "$1" "$TOP" -b -n "$1" -d "$DELAY"
}
# shellcheck disable=SC2086 # MEMTOP_ARGS is a list of options
run_memtop() {
	measure memtop "$1" "$MEMTOP" $MEMTOP_ARGS -b -n "$1" -d "$DELAY"
}
# shellcheck disable=SC2086
run_json() {
	measure json "$1" "$MEMTOP" $MEMTOP_ARGS --json -n "$1" -d "$DELAY"
}

# memtop's own count, to check it sees the idle processes
# shellcheck disable=SC2086
seen=$("$MEMTOP" $MEMTOP_ARGS -b -n 1 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\) processes,.*/\1/p')
# shellcheck disable=SC2086
bpfline=$("$MEMTOP" $MEMTOP_ARGS -b -n 1 2>/dev/null | grep -m1 '^BPF' || true)

echo "Process-table cost: $nprocs processes in /proc ($idle idle ones added, $before before);" \
	"memtop sees ${seen:-?}"
swap=$(awk '/^SwapTotal/ { t = $2 } /^SwapFree/ { f = $2 }
	END { print t ? (t - f) " kB of swap in use" : "no swap" }' /proc/meminfo)
echo "$(nproc) CPUs, $(uname -r); ${bpfline:-BPF off}; $swap"
echo "$ROUNDS rounds of 1 and $REFRESHES refreshes at -d $DELAY"
r=1
while [ $r -le "$ROUNDS" ]; do
	[ -t 2 ] && printf '  round %d/%d\r' "$r" "$ROUNDS" >&2
	run_memtop 1
	run_memtop "$REFRESHES"
	run_top 1
	run_top "$REFRESHES"
	run_json 1
	run_json "$REFRESHES"
	r=$((r + 1))
done
[ -t 2 ] && printf '              \r' >&2
now_idle=$(count_idle "$spawner")
if [ "$now_idle" -ne "$idle" ]; then
	echo "procs.sh: warning: $idle idle processes at the start, $now_idle at the end" >&2
fi

# rows of raw: label n utime_us stime_us maxrss_kb last_rss_kb, in run order; pair the k-th 1-refresh run of a
# label with its k-th N-refresh run.
awk -v N="$REFRESHES" "$MEDIAN_AWK"'
{
	cpu = ($3 + $4) / 1000.0
	if ($2 == 1) { k = ++n1[$1]; one[$1, k] = cpu; oneu[$1, k] = $3 / 1000.0; ones[$1, k] = $4 / 1000.0 }
	else { k = ++nn[$1]; many[$1, k] = cpu; manyu[$1, k] = $3 / 1000.0; manys[$1, k] = $4 / 1000.0 }
	if ($5 > rss[$1]) rss[$1] = $5
	if ($2 != 1) { endrss[$1, k] = $6 / 1024.0 }
}
END {
	split("memtop json top", labels, " ")
	name["memtop"] = "memtop -b"; name["json"] = "memtop --json"; name["top"] = "top -b"
	printf "\n%-14s %10s %6s %6s %12s %11s %8s %8s\n", "", "ms/refresh", "user", "sys", "min..max", "start-up ms", "peak RSS", "end RSS"
	for (l = 1; l <= 3; l++) {
		x = labels[l]; n = n1[x] < nn[x] ? n1[x] : nn[x]
		lo = 1e18; hi = -1e18
		for (k = 1; k <= n; k++) {
			per[k] = (many[x, k] - one[x, k]) / (N - 1)
			pu[k] = (manyu[x, k] - oneu[x, k]) / (N - 1)
			ps[k] = (manys[x, k] - ones[x, k]) / (N - 1)
			if (per[k] < lo) lo = per[k]
			if (per[k] > hi) hi = per[k]
		}
		m = median(per, n); mu = median(pu, n); msys = median(ps, n)
		for (k = 1; k <= n; k++) st[k] = one[x, k] - per[k]
		s = median(st, n)
		for (k = 1; k <= n; k++) er[k] = endrss[x, k]
		e = median(er, n)
		med[x] = m
		printf "%-14s %10.1f %6.1f %6.1f %5.1f..%-6.1f %11.1f %5.1f MB %5.1f MB\n", name[x], m, mu, msys, lo, hi, s, rss[x] / 1024.0, e
	}
	printf "\nratio memtop -b / top -b:     %.2f (target <= 1.0)\n", med["memtop"] / med["top"]
	printf "ratio memtop --json / top -b: %.2f\n", med["json"] / med["top"]
}' "$tmp/raw"
