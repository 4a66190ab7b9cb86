#!/bin/sh
# memtop-test: sanitized
# A process whose name and command line hold escape sequences: batch output shows them
# escaped, JSON carries them exactly, and neither writes a raw ESC byte.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

: >"$tmp/child"
"$HELPERS/evil_name" "marker-$$" >"$tmp/child" &
child=$!
wait_ready "$tmp/child" || fail "evil_name never got ready"
esc=$(printf '\033')
comm=$(cat /proc/$child/comm)
cmd=$(tr '\0' ' ' </proc/$child/cmdline | sed 's/ $//')
case $comm in *"$esc"*) ;; *) fail "evil_name's comm holds no ESC: $comm" ;; esac

"$MEMTOP" -b -n 1 >"$tmp/batch" || fail "memtop -b exited $?"
"$MEMTOP" --json -n 1 >"$tmp/json" || fail "memtop --json exited $?"
for f in batch json; do
	if grep -q "$esc" "$tmp/$f"; then
		fail "the $f output holds a raw ESC byte: $(grep -n "$esc" "$tmp/$f" | cat -v | head -3)"
	fi
done

# batch: the row shows the command with ESC written as \e (or \x1b)
shown=$(printf '%s' "$cmd" | sed 's/\x1b/\\e/g')
shown_x=$(printf '%s' "$cmd" | sed 's/\x1b/\\x1b/g')
row=$(awk -v p="$child" '$1 == p' "$tmp/batch")
[ -n "$row" ] || fail "pid $child is not in the batch output"
case $row in
*"$shown" | *"$shown_x") printf 'batch row: %s\n' "$row" ;;
*) fail "batch row does not end in the escaped command line: $row" ;;
esac

# JSON: jq decodes the exact bytes back
got=$(jq -r --argjson p "$child" '.processes[] | select(.pid == $p) | .comm' "$tmp/json") ||
	fail "jq cannot parse the JSON"
[ "$got" = "$comm" ] || fail "comm from JSON is '$(printf '%s' "$got" | cat -v)', /proc says '$(printf '%s' "$comm" | cat -v)'"
got=$(jq -r --argjson p "$child" '.processes[] | select(.pid == $p) | .cmd' "$tmp/json")
[ "$got" = "$cmd" ] || fail "cmd from JSON is '$(printf '%s' "$got" | cat -v)', /proc says '$(printf '%s' "$cmd" | cat -v)'"
