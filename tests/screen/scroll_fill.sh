#!/bin/sh
# Costly columns are read for the rows on screen, and for rows that come into view at
# once, not at the next refresh. After the first refresh (which reads every row) memtop
# reads PSS only for the rows it shows; paused, End brings the last rows into view and
# they show their PSS (a number, not '-') with no refresh in between.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to read every process's smaps_rollup"
sleepers=
trap 'tm_kill; [ -n "$sleepers" ] && kill $sleepers 2>/dev/null' EXIT
trap 'exit 1' INT TERM HUP
# more processes than one screen holds
start_sleepers 40

tm_start 80 24 "'$MEMTOP' -d 0.5 --columns pid,pss,cmd"
wait_for "PID   PSS" || fail "memtop did not start with PID PSS COMMAND"
next_refresh && next_refresh || fail "memtop does not refresh"
tm send-keys Z
wait_for "PAUSED" || fail "Z did not pause: $(screen_text | tail -1)"
sleep 0.3 # a row new at the last refresh is read right after the draw that shows it
# rows showing '-' for PSS whose process still lives. Left out: pid 1, unreadable even for
# root here (a sandbox's init), and processes that exited in the meantime (a grep of this
# test's own), whose smaps_rollup was gone when it was read.
dashes() {
	n=0
	for p in $(screen_text | awk 'NR > 7 && $1 != 1 && $2 == "-" { print $1 }'); do
		[ -d "/proc/$p" ] && n=$((n + 1))
	done
	echo $n
}
no_dashes() { [ "$(dashes)" = 0 ]; }
eventually $HANG no_dashes || fail "the first screen has rows without PSS: $(screen_text)"
screen_text >"$tmp/top"
tm send-keys End
moved() { screen_text | cmp -s - "$tmp/top" && return 1 || return 0; }
eventually $HANG moved || fail "End did not scroll: $(screen_text)"
eventually $HANG no_dashes || fail "after End, rows without PSS (paused, no refresh): $(screen_text)"
screen_text | grep -q 'Tasks' || fail "the header is gone"
echo "End: the last rows show PSS at once, $(screen_text | awk 'NR > 7 && NF' | wc -l) rows"
