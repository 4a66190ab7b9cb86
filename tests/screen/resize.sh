#!/bin/sh
# memtop-test: sanitized
# Shrinking the terminal below the minimum shows "Terminal too small" instead of the
# layout; growing it back restores the layout.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
trap 'tm_kill' EXIT
trap 'exit 1' INT TERM HUP

tm_start 100 30 "$MEMTOP -d 0.5"
wait_for "PID USER" || fail "memtop did not start"
tm resize-window -x 40 -y 10
wait_for "Terminal too small" || fail "40x10 did not say the terminal is too small"
screen_text | grep -q "40x10" || fail "the message does not give the size 40x10: $(screen_text)"
if screen_text | grep -q -e 'Mem\[' -e 'PID USER'; then
	fail "the layout is drawn at 40x10: $(screen_text)"
fi

tm resize-window -x 100 -y 30
wait_for "PID USER" || fail "the layout did not come back at 100x30"
wait_gone "Terminal too small" || fail "the too-small message stayed"
screen_text | head -n 1 | grep -q '^Mem\[.*\]$' || fail "line 1 is not the Mem meter: $(screen_text | head -n 1)"
# the clock is right-aligned on the status line: it ends in column 100 again
status=$(screen_text | grep '^Tasks ')
printf '%s\n' "$status" | grep -Eq '[0-9]{2}:[0-9]{2}:[0-9]{2}$' && [ ${#status} -eq 100 ] ||
	fail "the status line does not span 100 columns: $status"
