#!/bin/sh
# Where the time to memtop's first screen goes: memtop -n 1 in a tmux pane of 120x40,
# ROUNDS times, with MEMTOP_TIMES (src/base/marks.h) writing a line per start-up step; prints
# each step's median wall and CPU time (of the main thread; the loader thread's apart) and
# the median totals. NPROCS idle processes are added first (bench/idle_procs.c).
# Prints figures; it is not a test.
#
#   sh bench/first_screen.sh               NPROCS=2000 ROUNDS=5 by default
#   NPROCS=0 ROUNDS=9 MEMTOP_ARGS=--no-bpf sh bench/first_screen.sh
set -eu

cd "$(dirname "$0")/.."
. bench/median.inc
NPROCS=${NPROCS:-2000}
ROUNDS=${ROUNDS:-5}
MEMTOP=${MEMTOP:-build/memtop}
MEMTOP_ARGS=${MEMTOP_ARGS:-}
HELPER=build/bench/idle_procs
[ -x "$MEMTOP" ] || { echo "first_screen.sh: $MEMTOP is missing: make build/memtop" >&2; exit 1; }
MEMTOP=$(cd "$(dirname "$MEMTOP")" && pwd)/$(basename "$MEMTOP")
mkdir -p build/bench
${CC:-cc} -O2 -Wall -Wextra -Werror -D_GNU_SOURCE bench/idle_procs.c -o "$HELPER"

tmp=$(mktemp -d /tmp/memtop-first.XXXXXX)
sock=memtop-first-$$
spawner=
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	[ -z "$spawner" ] || kill "$spawner" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "$NPROCS" -gt 0 ]; then
	"$HELPER" spawn "$NPROCS" >"$tmp/ready" &
	spawner=$!
	i=0
	until grep -q '^ready' "$tmp/ready" 2>/dev/null; do
		[ $i -lt 1200 ] && kill -0 "$spawner" 2>/dev/null ||
			{ echo "first_screen.sh: the idle processes did not start" >&2; exit 1; }
		sleep 0.1
		i=$((i + 1))
	done
fi
set -- /proc/[0-9]*
echo "memtop's first screen, $# processes in /proc, $ROUNDS rounds (medians, ms)"

r=0
while [ $r -lt "$ROUNDS" ]; do
	r=$((r + 1))
	out=$tmp/times.$r
	# shellcheck disable=SC2086 # MEMTOP_ARGS is a list of options
	tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 \
		"env MEMTOP_TIMES='$out' '$MEMTOP' -n 1 $MEMTOP_ARGS; sleep 30"
	i=0
	until grep -q ' drawn$' "$out" 2>/dev/null; do
		[ $i -lt 600 ] || { echo "first_screen.sh: no first screen" >&2; exit 1; }
		sleep 0.05
		i=$((i + 1))
	done
	tmux -L "$sock" kill-server 2>/dev/null || true
	sleep 0.5
done

# each step: the wall and main-thread CPU since the step before, medians over the rounds
cat "$tmp"/times.* | awk "$MEDIAN_AWK"'
{
	step = substr($0, index($0, $4))
	if (step == "main") { round++; pw = 0; pc = $2; k = 0 }
	if (step ~ /^loader thread/) { lw[step, round] = $1; lc[step, round] = $3; next }
	if (!(step in seen)) { seen[step] = ++nsteps; name[nsteps] = step }
	w[step, round] = $1 - pw; c[step, round] = (step == "main" ? $3 : $3 - pc)
	pw = $1; pc = $3
	if (step == "drawn") { tw[round] = $1; tc[round] = $2 }
}
END {
	printf "%-46s %8s %8s\n", "step (main: CPU before main)", "wall", "CPU"
	for (s = 1; s <= nsteps; s++) {
		for (r = 1; r <= round; r++) { a[r] = w[name[s], r]; b[r] = c[name[s], r] }
		printf "%-46s %8.2f %8.2f\n", name[s], median(a, round), median(b, round)
	}
	for (r = 1; r <= round; r++) { a[r] = tw[r]; b[r] = tc[r] }
	printf "%-46s %8.2f %8.2f\n", "first screen (from main; CPU: the process)", median(a, round), median(b, round)
}'
