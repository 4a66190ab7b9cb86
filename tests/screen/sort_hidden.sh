#!/bin/sh
# F6 lists every sortable column, shown or not: PSS, hidden by default, is in the list;
# choosing it sorts by it and shows it, with the process's Pss from smaps_rollup. At 80x24
# TXT, which the narrow line leaves out, is listed too, and sorting by it shows it.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

start_child 24 0 "sorth-$$"
titles() { screen_text | grep -E '^ *PID ' | head -n 1; }
has_title() { titles | grep -q " $1 "; }
# pick TITLE: F6, Down to TITLE's line of the picker, Enter
pick() {
	tm send-keys F6
	wait_for "Sort by (Enter picks" || fail "F6 opened no sort picker"
	n=$(screen_text | awk -v t="$1" 'NR > 2 { i++ } NR > 2 && $1 == t { print i - 1; exit }')
	[ -n "$n" ] || fail "the sort picker does not list $1: $(screen_text)"
	sel=$(screen_text | awk 'NR > 2 { i++ } NR > 2 && $1 == "RSS" { print i - 1; exit }')
	tm send-keys Home 2>/dev/null
	# the picker starts on the sort column (RSS): move from there
	while [ "$sel" -lt "$n" ]; do tm send-keys Down; sel=$((sel + 1)); done
	while [ "$sel" -gt "$n" ]; do tm send-keys Up; sel=$((sel - 1)); done
	tm send-keys Enter
	wait_for "Sort $1 " || fail "choosing $1 did not sort by it: $(screen_text | grep '^Tasks')"
}

tm_start 120 30 "$MEMTOP -d 0.5 -p $child"
wait_for "sorth-$$" || fail "the child never showed"
has_title PSS && fail "PSS is shown by default: $(titles)"
pick PSS
eventually $HANG has_title PSS || fail "sorting by PSS did not show it: $(titles)"
col=$(titles | awk '{ for (i = 1; i <= NF; i++) if ($i == "PSS") print i }')
pss() { screen_text | awk -v p="$child" -v c="$col" '$1 == p { print $c }'; }
pss_is() { pss_shown "$(pss)" "$child"; }
eventually $HANG pss_is || fail "PSS of $child is '$(pss)', smaps_rollup says $(awk '/^Pss:/ { print $2 }' /proc/$child/smaps_rollup) kB"
echo "F6 listed hidden PSS; choosing it sorted by it and showed $(pss) for $child"
tm_kill

tm_start 80 24 "$MEMTOP -d 0.5 -p $child"
wait_for "alloc_child 24" || fail "the child never showed at 80x24"
has_title TXT && fail "TXT is shown at 80 columns: $(titles)"
pick TXT
eventually $HANG has_title TXT || fail "sorting by TXT at 80 columns did not show it: $(titles)"
echo "80x24: TXT, left out, listed and shown once sorted by: $(titles)"
