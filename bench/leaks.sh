#!/bin/sh
# What `memtop --leaks` costs the traced program: bench/alloc_loop (malloc a block of 16
# to 1024 bytes, fill it, WORK rounds of arithmetic over it, free an older block) at
# several amounts of WORK, run alternately without and with `memtop --leaks PID` attached
# (its uprobes on malloc, realloc, calloc, posix_memalign, aligned_alloc and free, and the mmap
# tracepoints). CPU time per operation (one malloc and one free); the medians, and the
# median over pairs of the slowdown and of the ns added per operation.
# Usage: sh bench/leaks.sh [PAIRS]   (default 7); WORKS="0 200" picks the amounts of work.
set -eu
cd "$(dirname "$0")/.."
PAIRS=${1:-7}
WORKS=${WORKS:-0 200 1000 4000}
MEMTOP=build/memtop
LOOP=build/bench/alloc_loop
[ -x "$MEMTOP" ] || { echo "leaks.sh: build memtop first (make build/memtop)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "leaks.sh: --leaks needs root" >&2; exit 1; }
mkdir -p build/bench
[ "$LOOP" -nt bench/alloc_loop.c ] ||
	${CC:-cc} -O2 -Wall -Wextra -Werror -D_GNU_SOURCE bench/alloc_loop.c -o "$LOOP"
out=build/bench/leaks
mt="" lp=""
cleanup() {
	for p in $lp $mt; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null || true
	done
	return 0
}
trap cleanup EXIT
trap 'exit 1' INT TERM

median() {
	echo "$@" | tr ' ' '\n' | grep . | sort -n |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# traced OPS WORK: alloc_loop's ns per operation with memtop --leaks attached to it
traced() {
	"$LOOP" "$1" "$2" wait >$out.loop &
	lp=$!
	until grep -q ready $out.loop; do sleep 0.05; done
	"$MEMTOP" --leaks "$lp:600" >$out.mt 2>$out.err &
	mt=$!
	# started once all is attached: 11 uprobes and 3 tracepoints
	until [ "$(ls -l "/proc/$mt/fd" 2>/dev/null | grep -c 'anon_inode:bpf_link')" -ge 14 ]; do
		kill -0 "$mt" 2>/dev/null || { cat $out.err >&2; exit 1; }
		sleep 0.05
	done
	kill -USR1 "$lp"
	wait "$lp"
	lp=""
	wait "$mt" || true # it says the process exited
	mt=""
	cat $out.loop | tail -n 1
}

for work in $WORKS; do
	# about 2 s a traced run
	ops=$((300000 / (1 + work / 1000)))
	without="" with="" ratios="" added=""
	i=0
	while [ $i -lt "$PAIRS" ]; do
		a=$("$LOOP" $ops "$work")
		b=$(traced $ops "$work")
		without="$without $a" with="$with $b"
		ratios="$ratios $(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')"
		added="$added $(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')"
		i=$((i + 1))
	done
	awk -v w="$work" -v a="$(median $without)" -v b="$(median $with)" -v r="$(median $ratios)" \
		-v d="$(median $added)" -v n="$PAIRS" 'BEGIN {
		printf "work %5d: medians of %d: without %8.1f ns/op (%7.0f ops/s), with %8.1f ns/op;", w, n, a, 1e9 / a, b
		printf " over pairs: slowdown %.2fx, %+.0f ns/op\n", r, d
	}'
done
