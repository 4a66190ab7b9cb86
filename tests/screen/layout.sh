#!/bin/sh
# The main screen: meters, activity and status lines, column titles, the F-key bar, and a
# process the test started, shown with its command line.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

marker=layout-$$
start_child 32 0 "$marker"

tm_start 160 30 "$MEMTOP"
wait_for "$marker" || fail "the started child never appeared"
screen_text >"$tmp/screen"
line() { sed -n "$1p" "$tmp/screen"; }
line 1 | grep -q '^Mem\[.*\]$' || fail "line 1 is not the Mem[...] meter: $(line 1)"
line 2 | grep -q '^Swp\[.*\]$' || fail "line 2 is not the Swp[...] meter: $(line 2)"
grep -q '^Faults/s [0-9-]' "$tmp/screen" || fail "no Faults/s line"
grep -q '^Tasks [0-9][0-9]*, [0-9][0-9]* shown' "$tmp/screen" || fail "no Tasks line"

# column titles, left to right
titles=$(grep '^ *PID ' "$tmp/screen" | tr -s ' ' | sed 's/^ //')
expected='PID USER RSS VSZ SHR TXT DATA SWAP %MEM MINF/s MAJF/s'
case $titles in
"$expected "*" COMMAND") ;;
*) fail "column titles are '$titles'" ;;
esac
tail -n 1 "$tmp/screen" | grep -q '^F1Help F2Columns F3Search F4Filter F5Tree F6SortBy F9Kill F10Quit' ||
	fail "no F-key bar: $(tail -n 1 "$tmp/screen")"

# the child's row: its pid, user, the command line as /proc has it, an RSS of at least 32M
cmd=$(tr '\0' ' ' </proc/$child/cmdline | sed 's/ $//')
row=$(awk -v p="$child" '$1 == p' "$tmp/screen")
[ -n "$row" ] || fail "no row for pid $child"
case $row in
*" $cmd") ;;
*) fail "the row of pid $child does not end in '$cmd': $row" ;;
esac
user=$(id -un)
[ "$(printf '%s\n' "$row" | awk '{ print $2 }')" = "$user" ] || fail "the row's user is not $user: $row"
printf '%s\n' "$row" | awk '{ exit !($3 ~ /^[0-9.]+M$/ && $3 + 0 >= 32) }' || fail "RSS below 32M: $row"
