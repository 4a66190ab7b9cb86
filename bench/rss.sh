#!/bin/sh
# memtop's steady resident size with NPROCS idle processes added to the machine, -b and
# the screen, against an earlier build (BASE): each runs at a 1 s delay and its
# /proc/PID/status is read after SECS seconds, in the middle of its run (not as it exits,
# when it unmaps its large blocks), then it is stopped. Every program runs in turn in each
# round; medians over the rounds. Prints figures; it is not a test.
#
#   BASE=/tmp/old/build/memtop NPROCS=10000 sh bench/rss.sh
#
# Knobs (environment): NPROCS (2000), ROUNDS (3), SECS (20), MEMTOP (build/memtop), BASE
# (another memtop binary; none: memtop alone), MEMTOP_ARGS (extra options for both).
set -eu

cd "$(dirname "$0")/.."
. bench/median.inc
NPROCS=${NPROCS:-2000}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-20}
MEMTOP=${MEMTOP:-build/memtop}
BASE=${BASE:-}
MEMTOP_ARGS=${MEMTOP_ARGS:-}
HELPER=build/bench/idle_procs

die() {
	echo "rss.sh: $*" >&2
	exit 1
}
[ -x "$MEMTOP" ] || die "$MEMTOP is missing: run make build/memtop"
[ -z "$BASE" ] || [ -x "$BASE" ] || die "BASE $BASE is not a program"
command -v tmux >/dev/null 2>&1 || die "no tmux on this machine: sh scripts/deps.sh installs it"
mkdir -p build/bench
${CC:-cc} -O2 -Wall -Wextra -Werror -D_GNU_SOURCE bench/idle_procs.c -o "$HELPER"

tmp=$(mktemp -d /tmp/memtop-rss.XXXXXX)
sock=memtop-rss-$$
spawner=
. bench/idle.inc
on_exit_clean

[ "$NPROCS" -eq 0 ] || start_spawner "$NPROCS"
echo "$(count_procs) processes in /proc ($NPROCS idle ones added); $ROUNDS rounds," \
	"status read after $SECS s at -d 1"

# status LABEL PID: appends "LABEL VmRSS RssAnon RssFile VmLck" (kB) of PID to $tmp/raw
status() {
	awk -v l="$1" '/^(VmRSS|RssAnon|RssFile|VmLck):/ { v[$1] = $2 }
		END { print l, v["VmRSS:"], v["RssAnon:"], v["RssFile:"], v["VmLck:"] }' \
		"/proc/$2/status" >>"$tmp/raw"
}

# run LABEL BIN MODE: BIN with -b (MODE b) or on a tmux pane of 120x40 (MODE screen)
run() {
	n=$((SECS + 30))
	if [ "$3" = b ]; then
		# shellcheck disable=SC2086
		"$2" $MEMTOP_ARGS -b -d 1 -n "$n" >/dev/null 2>&1 &
		pid=$!
	else
		LANG=C.UTF-8 tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 \
			"exec '$2' $MEMTOP_ARGS -d 1 -n $n"
		pid=$(tmux -L "$sock" list-panes -F '#{pane_pid}')
	fi
	sleep "$SECS"
	kill -0 "$pid" 2>/dev/null || die "$1 ended before $SECS s"
	status "$1" "$pid"
	kill "$pid"
	[ "$3" = screen ] || wait "$pid" 2>/dev/null || true
	tmux -L "$sock" kill-server 2>/dev/null || true
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
	run "memtop-b" "$MEMTOP" b
	[ -z "$BASE" ] || run "base-b" "$BASE" b
	run "memtop-screen" "$MEMTOP" screen
	[ -z "$BASE" ] || run "base-screen" "$BASE" screen
	r=$((r + 1))
done

echo "MB, median over the rounds (min..max)"
printf '%-16s %-20s %-20s %-20s %-20s\n' "" VmRSS RssAnon RssFile VmLck
awk "$MEDIAN_AWK"'
{
	if (!($1 in n)) order[++nl] = $1
	k = ++n[$1]
	for (f = 2; f <= 5; f++) v[$1, f, k] = $f / 1024
}
END {
	for (l = 1; l <= nl; l++) {
		x = order[l]
		printf "%-16s", x
		for (f = 2; f <= 5; f++) {
			lo = 1e18; hi = 0
			for (k = 1; k <= n[x]; k++) {
				a[k] = v[x, f, k]; if (a[k] < lo) lo = a[k]; if (a[k] > hi) hi = a[k]
			}
			printf " %-20s", sprintf("%.1f (%.1f..%.1f)", median(a, n[x]), lo, hi)
		}
		printf "\n"
	}
}' "$tmp/raw"
