#!/bin/sh
# The view keeps its place, as in top and htop. Until the user moves the selection, it
# stays on the first row of the sorted list: when the biggest process dies (a zombie at
# 0K, then reaped) the screen still shows the biggest processes, with the first row
# selected. Once the user has moved it, the selection follows its process; when that one
# goes away, the selection stays at the same place in the list.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
holder=
trap '[ -n "$child$holder" ] && kill -9 $child $holder 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# the pid k offers to signal: the selected row's
selected() {
	tm send-keys k
	wait_for "Signal to send" >/dev/null || fail "k opened no signal prompt"
	tm send-keys Enter
	wait_for "? [y/N]" >/dev/null || fail "no confirmation after the signal prompt"
	screen_text | sed -n 's/.* to \([0-9]*\) (.*/\1/p' | tail -n 1
	tm send-keys n
	wait_for "not sent" >/dev/null || fail "n did not cancel"
}
rows() { screen_text | awk 'f && $1 ~ /^[0-9]+$/ { print } / PID / { f = 1 }'; }
first_pid() { rows | awk 'NR == 1 { print $1 }'; }

# 1. nobody moved the selection: the biggest process dies; its parent (a sleep, which
# reaps no child) keeps it a zombie at 0K for a while, then goes, and init reaps it
sh -c '"$0" 300 0 "keep-$1" >"$2" & exec sleep 60' "$HELPERS/alloc_child" $$ "$tmp/child" &
holder=$!
wait_ready "$tmp/child" || fail "alloc_child never got ready"
child=$(awk '{ print $2; exit }' "$tmp/child")
# among the test's own processes (-p): on a busy machine another's may be bigger
tm_start 150 16 "'$MEMTOP' -d 0.5 -p $child,$holder,$$"
i=0
until [ "$(first_pid)" = "$child" ]; do
	[ $i -lt 600 ] || fail "the 300 MB child never came first: $(rows | head -3)"
	sleep 0.1
	i=$((i + 1))
done
kill -9 "$child" # a zombie at 0K until it is reaped
next_refresh && next_refresh || fail "memtop stopped refreshing"
kill "$holder"
wait "$holder" 2>/dev/null
dead=$child child=
wait_gone " $dead " || fail "the dead child stays on screen"
next_refresh || fail "memtop stopped refreshing"
top=$(rows | head -n 1)
[ "$(echo "$top" | awk '{ print $1 }')" != "$dead" ] || fail "the dead child is first"
echo "$top" | awk '{ exit $3 == "0K" }' || fail "the view slid down to 0K rows: $(rows | head -3)"
sel=$(selected)
[ "$sel" = "$(first_pid)" ] || fail "the selection ($sel) left the first row ($(first_pid))"
echo "unmoved: after the biggest process died the view shows $(rows | head -n 1 | cut -c1-60)..., selected"

# 2. the user moved the selection: it follows its process, across a re-sort; when that
# one goes away the selection stays at the same place. Three children of 20, 10 and 30
# MB, by RSS: c, b, a
tm_kill
TMUX_SOCK=memtop-test-$$-2
start_child 20 0 keep-b-$$
pb=$child
start_child 10 0 keep-a-$$
pa=$child
start_child 30 0 keep-c-$$
pc=$child
child="$pa $pb $pc"
tm_start 150 16 "'$MEMTOP' -d 0.5 -p $pa,$pb,$pc"
wait_for " $pa " || fail "memtop did not start"
[ "$(rows | awk '{ printf "%s ", $1 }')" = "$pc $pb $pa " ] || fail "not in RSS order: $(rows)"
[ "$(selected)" = "$pc" ] || fail "the first row is not selected at start"
tm send-keys Down Down
tm send-keys I # a, b, c: the selection goes with a to the first row
wait_for "RSS asc" || fail "I did not invert the order"
next_refresh || fail "memtop stopped refreshing"
[ "$(selected)" = "$pa" ] || fail "the selection did not follow pid $pa across the re-sort"
kill -9 "$pa"
wait "$pa" 2>/dev/null
child="$pb $pc"
wait_gone " $pa " || fail "the killed child stays on screen"
next_refresh || fail "memtop stopped refreshing"
[ "$(selected)" = "$pb" ] || fail "the selection did not stay on the first row, now pid $pb"
echo "moved: the selection followed pid $pa to the first row; once it was gone, pid $pb there"

# 3. Home: back to the top of the list for good
tm send-keys Down Home
next_refresh && next_refresh || fail "memtop stopped refreshing"
[ "$(selected)" = "$(first_pid)" ] || fail "after Home the selection is not the first row"
