#!/bin/sh
# / and text select the first row whose command holds the text, scrolling to it;
# the kill prompt then names that row's pid.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

marker=search-$$
start_child 0 0 "$marker"

# sorted by pid the child, started last, is below the first screenful
tm_start 160 30 "$MEMTOP -d 0.5 -o pid"
wait_for "Sort PID asc" || fail "memtop did not start sorted by pid"
if screen_text | grep -q "$marker"; then
	echo "the child is on the first screen already"
fi

tm send-keys /
wait_for "Search:" || fail "/ opened no search prompt"
tm send-keys -l "$marker"
tm send-keys Enter
wait_for "$marker" || fail "the matching row is not on screen"
wait_gone "Search:" || fail "Enter did not close the search prompt"

# the selected row is the one k offers to signal
tm send-keys k
wait_for "Signal to send" || fail "k opened no signal prompt"
tm send-keys Enter
wait_for "? [y/N]" || fail "no confirmation after the signal prompt"
screen_text | grep -q "to $child (alloc_child)? \[y/N\]" ||
	fail "the search selected another row: $(screen_text | tail -n 1)"
tm send-keys n
wait_for "not sent" || fail "n did not cancel"
kill -0 "$child" || fail "the child died although n was answered"
