#!/bin/sh
# Z pauses (PAUSED shows, the clock stops), Space resumes; d sets the refresh interval.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
trap 'tm_kill' EXIT
trap 'exit 1' INT TERM HUP

clock() { screen_text | grep '^Tasks ' | grep -o '[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$'; }
clock_moves() { # waits up to 3 s for the clock to change
	c=$(clock)
	i=0
	while [ "$(clock)" = "$c" ]; do
		i=$((i + 1))
		[ $i -le 30 ] || return 1
		sleep 0.1
	done
}

tm_start 100 30 "$MEMTOP -d 0.5"
wait_for "Refresh 0.5s" || fail "memtop did not start with -d 0.5"
[ -n "$(clock)" ] || fail "no clock on the status line: $(screen_text)"
clock_moves || fail "the clock does not move while running"

tm send-keys Z
wait_for PAUSED || fail "Z did not show PAUSED"
c=$(clock)
sleep 2.2
[ "$(clock)" = "$c" ] || fail "the clock moved from $c to $(clock) while paused"
tm send-keys Space
wait_gone PAUSED || fail "Space did not resume"
clock_moves || fail "the clock does not move after resuming"

tm send-keys d
wait_for "Refresh interval in seconds: 0.5" || fail "d did not offer the current interval"
tm send-keys BSpace BSpace BSpace
tm send-keys -l 2
tm send-keys Enter
wait_for "Refresh 2.0s" || fail "the new interval is not shown"
# a refresh now comes every 2 s: the clock moves in steps of 2
clock_moves || fail "the clock stopped after setting 2 s"
a=$(clock)
clock_moves || fail "the clock stopped after setting 2 s"
b=$(clock)
secs() { echo "$1" | awk -F: '{ print $1 * 3600 + $2 * 60 + $3 }'; }
step=$((($(secs "$b") - $(secs "$a") + 86400) % 86400))
[ $step -ge 2 ] || fail "the clock went from $a to $b with a 2 s interval"
