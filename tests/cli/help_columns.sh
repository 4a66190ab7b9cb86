#!/bin/sh
# --help's list of the names -o sorts by is the column table's: it names every column -o
# accepts (the table itself lists them, in -o's message for a name it lacks), and -o and
# --columns accept every name it lists. --help describes the present: no "as it did
# before", no "kept for". --theme names every theme of themes/ (each compiled in).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

"$MEMTOP" --help >"$tmp/help" || fail "--help exited $?"
# the names -o accepts, from the table: "-o: no column 'x' (try pid, ppid, ...)"
"$MEMTOP" -o no-such-column -V >/dev/null 2>"$tmp/err" && fail "-o no-such-column was accepted"
sed -n 's/.*(try \(.*\))$/\1/p' "$tmp/err" | tr -d ',' | tr ' ' '\n' | grep . >"$tmp/table"
[ "$(wc -l <"$tmp/table")" -ge 20 ] || fail "-o's message lists no columns: $(cat "$tmp/err")"

# --help's -o paragraph: the names after "sort by FIELD (default ...):"
awk '/^  -o, --sort/ { on = 1; sub(/.*FIELD[^:]*:/, ""); print; next }
	on && /^                        / { print; next }
	{ on = 0 }' "$tmp/help" | tr ' ' '\n' | grep . >"$tmp/listed"
[ -s "$tmp/listed" ] || fail "--help has no -o paragraph listing names: $(grep -- '-o,' "$tmp/help")"

while read -r name; do
	grep -qx "$name" "$tmp/listed" || fail "--help's -o list lacks $name (listed: $(tr '\n' ' ' <"$tmp/listed"))"
done <"$tmp/table"
while read -r name; do
	"$MEMTOP" -o "$name" -V >/dev/null 2>"$tmp/err" || fail "--help lists $name, -o rejects it: $(cat "$tmp/err")"
	"$MEMTOP" --columns "$name" -V >/dev/null 2>"$tmp/err" ||
		fail "--help lists $name, --columns rejects it: $(cat "$tmp/err")"
done <"$tmp/listed"
[ "$(wc -l <"$tmp/listed")" -eq "$(wc -l <"$tmp/table")" ] ||
	fail "--help lists $(wc -l <"$tmp/listed") names, the table has $(wc -l <"$tmp/table")"

awk '/^      --theme/ { on = 1; print; next } on && /^                        / { print; next }
	{ on = 0 }' "$tmp/help" >"$tmp/themes"
for t in themes/*.theme; do
	t=$(basename "$t" .theme)
	grep -q -w -- "$t," "$tmp/themes" || fail "--theme does not name the theme $t: $(cat "$tmp/themes")"
done

if grep -n -i -E 'as it did|did before|kept for scripts|used to|no longer|formerly' "$tmp/help"; then
	fail "--help speaks of the past (above)"
fi
echo "--help lists the $(wc -l <"$tmp/table") columns -o accepts, each accepted by -o and --columns"
