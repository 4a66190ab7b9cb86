#!/bin/sh
# f opens the column picker: every column with [x] for those shown. Space shows PSS, USS
# and OOM, whose values on screen are the child's smaps_rollup Pss and Private_* in the
# table's units and its oom_score; hiding VSZ removes it. Esc returns to the table; help lists the key.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

start_child 6

tm_start 140 30 "'$MEMTOP' -d 1 -p $child"
wait_for "PID USER" || fail "memtop did not start"
tm send-keys f
wait_for "[ ] PSS" || fail "f did not list PSS unchecked: $(screen_text | head -5)"
screen_text | grep -q '^\[x\] RSS ' || fail "RSS is not marked shown"
# PSS, USS follow SWAP; VSZ is the 5th entry
pos() { screen_text | awk -v t="$1" '{ c = substr($0, 5, 8); sub(/ +$/, "", c) }
	c == t && /^\[/ { print NR - 3; exit }'; }
go() { # go TITLE: moves the selection from the top to TITLE
	tm send-keys Home
	n=$(pos "$1")
	[ -n "$n" ] || fail "no $1 in the picker"
	while [ "$n" -gt 0 ]; do tm send-keys Down; n=$((n - 1)); done
}
go PSS && tm send-keys Space
go USS && tm send-keys Enter
go OOM && tm send-keys Space
go VSZ && tm send-keys Space
wait_for "[x] USS" || fail "Enter did not show USS"
wait_for "[x] OOM" || fail "Space did not show OOM"
# (the last key sent: drawn after OOM's)
vsz_off() { screen_text | grep -q '^\[ \] VSZ '; }
eventually $HANG vsz_off || fail "Space did not hide VSZ"
tm send-keys Escape
wait_for "PSS   USS  OOM" || fail "the table lacks PSS, USS and OOM: $(screen_text | sed -n 7p)"
screen_text | grep -q ' VSZ ' && fail "VSZ is still shown"

# the values: fmt_kb of smaps_rollup, and oom_score
rollup() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$child/smaps_rollup"; }
# PSS within 48 kB (pss_shown); USS and oom_score as they are
expect() { echo "$(($(rollup Private_Clean) + $(rollup Private_Dirty))) $(cat "/proc/$child/oom_score")"; }
matches() { # matches CELLS USS OOM: the screen's cells show the child's PSS and those
	set -- $1 "$2" "$3"
	[ "$2" = "$(fmt_kb "$4")" ] && [ "$3" = "$5" ] && pss_shown "$1" "$child"
}
i=0
while :; do
	want=$(expect)
	cells=$(screen_text | awk -v p="$child" '$1 == p { print $8, $9, $10 }')
	matches "$cells" $want && break
	i=$((i + 1))
	[ $i -lt 30 ] || fail "PSS USS OOM on screen '$cells'; smaps_rollup's Pss $(rollup Pss) kB, USS and oom_score $want"
	sleep 0.1
done
echo "PSS USS OOM shown: $cells (smaps_rollup's Pss $(rollup Pss) kB, USS and oom_score $want)"

tm send-keys h
wait_for "choose the columns" || fail "help does not list the column picker"
