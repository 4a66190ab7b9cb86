#!/bin/sh
# q and F10 quit with exit status 0.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# one pane runs memtop twice (told apart by their intervals) and writes each exit status
tm_start 100 30 "'$MEMTOP' -d 0.6; echo \$? >'$tmp/q'; '$MEMTOP' -d 0.7; echo \$? >'$tmp/F10'; sleep 30"
quits() { # KEY INTERVAL
	wait_for "Refresh $2s" || fail "memtop -d $2 did not start"
	tm send-keys "$1"
	i=0
	until [ -s "$tmp/$1" ]; do
		i=$((i + 1))
		[ $i -le 600 ] || fail "$1 did not quit memtop: $(screen_text)"
		sleep 0.1
	done
	[ "$(cat "$tmp/$1")" = 0 ] || fail "after $1 memtop exited with status $(cat "$tmp/$1")"
	printf '%s quits with status 0\n' "$1"
}
quits q 0.6
quits F10 0.7
