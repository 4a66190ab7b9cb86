#!/bin/sh
# Z pauses (PAUSED shows, the clock stops), Z again resumes; d sets the refresh interval.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
trap 'tm_kill' EXIT
trap 'exit 1' INT TERM HUP


tm_start 100 30 "$MEMTOP -d 0.5"
wait_for "Refresh 0.5s" || fail "memtop did not start with -d 0.5"
[ -n "$(screen_clock)" ] || fail "no clock on the status line: $(screen_text)"
next_refresh 10 || fail "the clock does not move while running"

tm send-keys Z
wait_for PAUSED || fail "Z did not show PAUSED"
c=$(screen_clock)
sleep 2.2
[ "$(screen_clock)" = "$c" ] || fail "the clock moved from $c to $(screen_clock) while paused"
tm send-keys Z
wait_gone PAUSED || fail "Z again did not resume"
next_refresh 10 || fail "the clock does not move after resuming"

tm send-keys d
wait_for "Refresh interval in seconds: 0.5" || fail "d did not offer the current interval"
tm send-keys BSpace BSpace BSpace
tm send-keys -l 2
tm send-keys Enter
wait_for "Refresh 2.0s" || fail "the new interval is not shown"
# a refresh now comes every 2 s: the clock moves in steps of 2
next_refresh 10 || fail "the clock stopped after setting 2 s"
a=$(screen_clock)
next_refresh 10 || fail "the clock stopped after setting 2 s"
b=$(screen_clock)
secs() { printf '%s\n' "$1" | awk -F: '{ print $1 * 3600 + $2 * 60 + $3 }'; }
step=$((($(secs "$b") - $(secs "$a") + 86400) % 86400))
[ $step -ge 2 ] || fail "the clock went from $a to $b with a 2 s interval"
