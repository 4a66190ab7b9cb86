#!/bin/sh
# What `memtop --stacks -- CMD` costs the command it samples, for page faults taken in
# user mode and in kernel mode (the latter sampled since kfault stacks). bench/fault_loop
# touches 256 MiB of fresh memory per pass (user-mode faults), or read()s /dev/zero into
# it (kernel-mode faults), PASSES passes (default 9), and prints the median CPU time per
# fault of its passes (its thread's CPU clock: BPF programs run in its context count,
# time preempted does not). Each round runs it plain and under memtop --stacks --json --,
# in turn (interleaved, so that slow drifts of the machine cancel out); prints the
# medians over ROUNDS rounds (default 7) of ns per fault plain and sampled, and the
# slowdown. Needs root and BPF; says it skipped (exit 0) without them.
# Usage: sh bench/stacks.sh [ROUNDS]
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${1:-7}
PASSES=${PASSES:-9}
MEMTOP=build/memtop
LOOP=build/bench/fault_loop
[ -x "$MEMTOP" ] || { echo "stacks.sh: build memtop first (make build/memtop)" >&2; exit 1; }
mkdir -p build/bench
[ "$LOOP" -nt bench/fault_loop.c ] ||
	${CC:-cc} -O2 -Wall -Wextra -Werror -D_GNU_SOURCE bench/fault_loop.c -o "$LOOP"
if ! err=$("$MEMTOP" --stacks $$ -d 0.1 2>&1 >/dev/null); then
	echo "stacks.sh: skipped, the sampler cannot run here: $err"
	exit 0
fi
tmp=$(mktemp -d /tmp/memtop-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

median() { sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for mode in touch read; do
	arg=""
	[ $mode = read ] && arg=read
	: >"$tmp/plain" && : >"$tmp/sampled" && : >"$tmp/slow"
	for r in $(seq "$ROUNDS"); do
		p=$("$LOOP" $arg 256 "$PASSES")
		"$MEMTOP" --stacks --json -- "$LOOP" $arg 256 "$PASSES" >"$tmp/out"
		s=$(head -1 "$tmp/out")
		tail -n +2 "$tmp/out" | jq -r '"\(.faults_user) \(.faults_kernel) \(.fault_samples) \(.ring_records) \(.events_sampled_out // 0)"' >>"$tmp/counts"
		echo "$p" >>"$tmp/plain"
		echo "$s" >>"$tmp/sampled"
		awk -v p="$p" -v s="$s" 'BEGIN { print (s / p - 1) * 100 }' >>"$tmp/slow"
	done
	printf '%-6s ns/fault plain %s, sampled %s, slowdown median %+.1f %% (rounds: %s)\n' $mode \
		"$(median <"$tmp/plain")" "$(median <"$tmp/sampled")" "$(median <"$tmp/slow")" \
		"$(tr '\n' ' ' <"$tmp/slow" | awk '{ for (i = 1; i <= NF; i++) printf "%+.1f ", $i }')"
	echo "       last run: user-mode faults, kernel-mode faults, samples, stacks copied, left out: $(tail -1 "$tmp/counts")"
done
