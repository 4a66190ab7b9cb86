#!/bin/sh
# > and < move the sort column (Sort field and highlighted title follow), M returns to RSS,
# I inverts the order; rows are checked against /proc/PID/statm.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kids=
trap '[ -n "$kids" ] && kill $kids 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# three children whose pid order differs from their size order
for mib in 8 24 16; do
	: >"$tmp/$mib"
	"$HELPERS/alloc_child" $mib >"$tmp/$mib" &
	kids="$kids $!"
	wait_ready "$tmp/$mib" || fail "alloc_child never got ready"
done

by_statm() { # FIELD ORDER: the children's pids sorted by a statm field
	for p in $kids; do echo "$(awk -v f="$1" '{ print $f }' /proc/$p/statm) $p"; done |
		sort -k1,1n"$2" | awk '{ printf "%s ", $2 }'
}
rows() { screen_text | awk '/^ *PID USER / { t = 1; next } t && $1 ~ /^[0-9]+$/ { printf "%s ", $1 }'; }
titles() { n=$(screen_text | awk '/^ *PID USER / { print NR - 1; exit }'); tm capture-pane -p -e -S "$n" -E "$n"; }
highlighted() { titles | awk -v hl="$hl" '{ i = index($0, hl); if (!i) exit
	s = substr($0, i + length(hl)); sub(/^ */, "", s); sub(/[ \033].*/, "", s); print s }'; }
expect() { # SORT-FIELD TITLE ORDER
	wait_for "Sort $1" || fail "the Sort field never showed '$1'"
	[ "$(highlighted)" = "$2" ] || fail "highlighted title is '$(highlighted)', not $2: $(titles | cat -v)"
	if [ -n "$3" ]; then
		i=0
		until [ "$(rows)" = "$3" ]; do
			i=$((i + 1))
			[ $i -le 30 ] || fail "sorted by $1 the rows are '$(rows)', not '$3'"
			sleep 0.1
		done
	fi
	echo "Sort $1: rows $(rows)"
}

tm_start 100 30 "$MEMTOP -d 0.5 -p $(echo $kids | tr ' ' ,)"
wait_for "Sort RSS desc" || fail "the default sort is not RSS descending"
# the attribute the sort column's title is drawn with, taken from the default screen
esc=$(printf '\033')
hl=$(titles | sed -n "s/.*\($esc\[[0-9;]*m\) *RSS .*/\1/p")
[ -n "$hl" ] || fail "the RSS title is not highlighted: $(titles | cat -v)"

expect "RSS desc" RSS "$(by_statm 2 r)"
tm send-keys '>'
expect "VSZ desc" VSZ "$(by_statm 1 r)"
tm send-keys '<'
expect "RSS desc" RSS "$(by_statm 2 r)"
tm send-keys '<'
expect "USER asc" USER
tm send-keys M
expect "RSS desc" RSS "$(by_statm 2 r)"
tm send-keys I
expect "RSS asc" RSS "$(by_statm 2)"
tm send-keys I
expect "RSS desc" RSS "$(by_statm 2 r)"
