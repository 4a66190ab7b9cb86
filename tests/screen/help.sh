#!/bin/sh
# h, ? and F1 open the help screen, which lists every binding of the key table;
# any key returns to the main screen. On a 24-line terminal the help scrolls: PgDn
# shows its end, and a key that does not scroll returns.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
root=$(cd "$(dirname "$0")/../.." && pwd)

# "names|help" of each entry in the key table, C escapes undone
sed -n 's/^[[:space:]]*{ *ACT_[A-Z_]*, *{[^}]*}, *"\([^"]*\)", *"\([^"]*\)" *},$/\1|\2/p' \
	"$root/ui/keys.c" | sed 's/\\\\/\\/g' >"$tmp/bindings"
[ "$(wc -l <"$tmp/bindings")" -gt 10 ] || fail "cannot read the key table from ui/keys.c"

tm_start 100 60 "$MEMTOP"
wait_for "Mem[" || fail "memtop did not start"
for key in h '?' F1; do
	tm send-keys "$key"
	wait_for "Press any key to return" || fail "$key did not open the help screen"
	screen_text >"$tmp/screen"
	# each binding: its names in the first 10 columns, its text after them
	awk -F'|' 'NR == FNR { want[$1] = $2; next }
		{ n = substr($0, 1, 10); sub(/ +$/, "", n); if (n in want && substr($0, 11) == want[n]) delete want[n] }
		END { for (n in want) { print "missing: " n "  " want[n]; bad = 1 } exit bad }' \
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
tm send-keys NPage NPage
wait_for "COMMAND  command line" || fail "PgDn did not reach the end of the help"
tm send-keys Up
screen_text | grep -q "memtop .* - keys" || fail "the help lost its title while scrolled"
tm send-keys x
wait_gone "any other key returns" || fail "a key that does not scroll did not leave the help"
echo "80x24: help scrolls to its end"
