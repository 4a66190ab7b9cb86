#!/bin/sh
# memtop-test: sanitized
# A process whose name and command line hold a right-to-left override (U+202E: it shows
# "invoice<U+202E>gpj.exe" as "invoiceexe.jpg") and a zero width space (U+200B): batch
# output shows them as \u202e and \u200b, JSON as \u escapes that decode back to the exact
# bytes, and neither writes them raw (E2 80 AE, E2 80 8B).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
export LC_ALL=C.UTF-8 # UTF-8 is shown as it is, but for these

: >"$tmp/child"
"$HELPERS/evil_name" --bidi "marker-$$" >"$tmp/child" &
child=$!
wait_ready "$tmp/child" || fail "evil_name never got ready"
rlo=$(printf '\342\200\256')
zwsp=$(printf '\342\200\213')
comm=$(cat /proc/$child/comm)
cmd=$(tr '\0' ' ' </proc/$child/cmdline | sed 's/ $//')
case $comm in *"$rlo"*"$zwsp"*) ;; *) fail "evil_name's comm holds no U+202E, U+200B: $comm" ;; esac

"$MEMTOP" -b -n 1 --columns +comm -p "$child" >"$tmp/batch" || fail "memtop -b exited $?"
"$MEMTOP" --json -n 1 -p "$child" >"$tmp/json" || fail "memtop --json exited $?"
for f in batch json; do
	if grep -q "$rlo\|$zwsp" "$tmp/$f"; then
		fail "the $f output holds U+202E or U+200B raw: $(grep "$rlo\|$zwsp" "$tmp/$f" | od -c | head -5)"
	fi
done

# batch: NAME (15 columns wide, so cut) and COMMAND, escaped
row=$(awk -v p="$child" '$1 == p' "$tmp/batch")
printf 'batch row: %s\n' "$row"
case $row in
*' \u202egpj.exe'*' invoice\u202egpj.exe\u200b-argv marker-'$$) ;;
*) fail "the batch row does not show NAME and COMMAND escaped: $row" ;;
esac

# JSON: the escapes are in the text, and jq decodes the exact bytes back
grep -qF '"comm":"\u202egpj.exe\u200b"' "$tmp/json" ||
	fail "JSON does not write comm with \\u escapes: $(cat "$tmp/json")"
grep -qF '"cmd":"invoice\u202egpj.exe\u200b-argv marker-'$$'"' "$tmp/json" ||
	fail "JSON does not write cmd with \\u escapes: $(cat "$tmp/json")"
got=$(jq -r '.processes[0].comm' "$tmp/json") || fail "jq cannot parse the JSON"
[ "$got" = "$comm" ] || fail "comm from JSON is '$got', /proc says '$comm'"
got=$(jq -r '.processes[0].cmd' "$tmp/json")
[ "$got" = "$cmd" ] || fail "cmd from JSON is '$got', /proc says '$cmd'"
exit 0
