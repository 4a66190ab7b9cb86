#!/bin/sh
# h, ? and F1 open the help screen, which lists every binding of every screen's key table
# (a 300-line terminal shows it whole); any key returns to the main screen. On a 24-line
# terminal the help scrolls: PgDn shows its end, and a key that does not scroll returns.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
root=$(cd "$(dirname "$0")/../.." && pwd)

# "names|help" of each entry in the screens' key tables, C escapes undone
sed -n 's/^[[:space:]]*{ *[A-Z][A-Z_]*, *{[^}]*}, *"\([^"]*\)", *"\([^"]*\)" *},$/\1|\2/p' \
	"$root"/ui/*.c | sed 's/\\\\/\\/g' >"$tmp/bindings"
[ "$(wc -l <"$tmp/bindings")" -gt 40 ] || fail "cannot read the key tables from ui/*.c"

tm_start 100 300 "$MEMTOP"
wait_for "Mem[" || fail "memtop did not start"
for key in h '?' F1; do
	tm send-keys "$key"
	wait_for "Press any key to return" || fail "$key did not open the help screen"
	screen_text >"$tmp/screen"
	# each binding: its names in the first 12 columns, its text after them
	awk 'NR == FNR { want[$0] = 1; next }
		{ n = substr($0, 1, 12); sub(/ +$/, "", n); delete want[n "|" substr($0, 13)] }
		END { for (w in want) { print "missing: " w; bad = 1 } exit bad }' \
		"$tmp/bindings" "$tmp/screen" || fail "the help screen after $key misses bindings"
	tm send-keys x
	wait_for "Mem[" || fail "a key did not leave the help screen"
	wait_gone "Press any key" || fail "the help screen stayed"
	echo "$key: help listed all $(wc -l <"$tmp/bindings") bindings"
done

tm resize-window -x 80 -y 24
tm send-keys h
wait_for "any other key returns" || fail "the help on 24 lines does not say it scrolls"
last=$(tail -n 1 "$tmp/bindings" | cut -d'|' -f1)
screen_text | grep -q "^$last " && fail "the last binding ($last) fits on 24 lines: no scrolling tested"
tm send-keys NPage NPage NPage NPage NPage NPage NPage NPage NPage NPage NPage NPage NPage NPage NPage NPage
wait_for "COMMAND  command line" || fail "PgDn did not reach the end of the help"
tm send-keys Up
screen_text | grep -q "memtop .* - keys" || fail "the help lost its title while scrolled"
tm send-keys x
wait_gone "any other key returns" || fail "a key that does not scroll did not leave the help"
echo "80x24: help scrolls to its end"
