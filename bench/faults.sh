#!/bin/sh
# Page-fault overhead of memtop's default mode (BPF on): bench/fault_loop touching 1 GiB of
# fresh anonymous pages (3 passes, CPU time per fault), run alternately without and with
# `memtop -b -d 1` in the background. Prints the medians, and the median over pairs of the
# slowdown and of the ns added per fault (a pair's two runs are seconds apart, so slow
# drifts of the machine cancel out in it).
# Usage: sh bench/faults.sh [PAIRS]   (default 15)
#   SWAP=1 sh bench/faults.sh: with a temporary 256 MiB swapfile on, but empty: the
#   swap-in program (memcg/count_memcg_events, which runs on every fault) stays detached.
#   SWAP=2: the same swapfile holding 16 MiB of a parked process (swap-ins counted from
#   swap read bios; nothing runs per fault).
#   SWAP=3: a 256 MiB zram swap partition (a device of its own, hot_add) holding 16 MiB
#   of a parked process (zram's synchronous swap-in bios; nothing runs per fault).
#   MEMTOP_ARGS=--no-bpf sh bench/faults.sh: memtop's /proc work alone, for comparison.
set -eu
cd "$(dirname "$0")/.."
PAIRS=${1:-15}
MEMTOP=build/memtop
LOOP=build/bench/fault_loop
[ -x "$MEMTOP" ] || { echo "faults.sh: build memtop first (make build/memtop)" >&2; exit 1; }
mkdir -p build/bench
[ "$LOOP" -nt bench/fault_loop.c ] ||
	${CC:-cc} -O2 -Wall -Wextra -Werror -D_GNU_SOURCE bench/fault_loop.c -o "$LOOP"
[ "$(id -u)" = 0 ] || echo "faults.sh: not root: memtop runs without BPF" >&2

swapfile="" zram="" mt="" parked=""
cleanup() {
	for p in $mt $parked; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null || true
	done
	if [ -n "$swapfile" ]; then
		swapoff "$swapfile" 2>/dev/null
		rm -f "$swapfile"
	fi
	if [ -n "$zram" ]; then
		swapoff "/dev/zram$zram" 2>/dev/null
		echo 1 >"/sys/block/zram$zram/reset"
		echo "$zram" >/sys/class/zram-control/hot_remove
	fi
	return 0
}
trap cleanup EXIT
trap 'exit 1' INT TERM
if [ "${SWAP:-0}" = 3 ]; then
	zram=$(cat /sys/class/zram-control/hot_add)
	echo $((256 << 20)) >"/sys/block/zram$zram/disksize"
	mkswap "/dev/zram$zram" >/dev/null
	swapon "/dev/zram$zram"
elif [ "${SWAP:-0}" != 0 ]; then
	swapfile=/var/tmp/memtop-bench-swap.$$
	dd if=/dev/zero of="$swapfile" bs=1M count=256 status=none
	chmod 600 "$swapfile"
	mkswap "$swapfile" >/dev/null
	swapon "$swapfile"
fi
if [ "${SWAP:-0}" -ge 2 ]; then
	"$LOOP" park 16 >build/bench/parked 2>&1 &
	parked=$!
	until grep -q parked build/bench/parked; do
		kill -0 "$parked" 2>/dev/null || { cat build/bench/parked >&2; exit 1; }
		sleep 0.1
	done
fi
ARGS=${MEMTOP_ARGS:-}
echo "swap: $(awk '/^Swap(Total|Free)/ { printf "%s %s %s ", $1, $2, $3 }' /proc/meminfo);" \
	"memtop $ARGS: $("$MEMTOP" $ARGS --json -n 1 | jq -r '.bpf | "\(.programs) BPF programs \(.reason)"')"

without="" with="" ratios="" added=""
i=0
while [ $i -lt "$PAIRS" ]; do
	a=$("$LOOP" 1024 3)
	"$MEMTOP" $ARGS -b -d 1 >build/bench/memtop.out 2>&1 &
	mt=$!
	sleep 2 # loaded and past its first refreshes
	b=$("$LOOP" 1024 3)
	# what memtop had attached (BPF links) and what swap held, at the end of the run
	links=$(ls -l "/proc/$mt/fd" 2>/dev/null | grep -c 'anon_inode:bpf_link')
	swap_used=$(awk '/^SwapTotal/ { t = $2 } /^SwapFree/ { f = $2 } END { print t - f }' /proc/meminfo)
	counting=$(grep -o 'swap-ins [a-z ]*' build/bench/memtop.out | tail -n 1)
	kill "$mt"
	wait "$mt" 2>/dev/null || true
	mt=""
	echo "pair $((i + 1)): without $a ns/fault, with $b ns/fault ($links BPF links," \
		"swap used ${swap_used} kB${counting:+, $counting})"
	without="$without $a" with="$with $b"
	ratios="$ratios $(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')"
	added="$added $(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')"
	i=$((i + 1))
done

median() {
	echo "$@" | tr ' ' '\n' | grep . | sort -n |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
awk -v a="$(median $without)" -v b="$(median $with)" -v r="$(median $ratios)" \
	-v d="$(median $added)" -v n="$PAIRS" 'BEGIN {
	printf "medians of %d: without %.1f ns/fault, with %.1f ns/fault\n", n, a, b
	printf "median over pairs: slowdown %.3f (%+.1f %%), %+.1f ns per fault\n", r,
		(r - 1) * 100, d
}'
