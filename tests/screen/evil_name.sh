#!/bin/sh
# memtop-test: sanitized
# A process whose name and command line hold escape sequences is shown escaped, and the
# rest of the screen stays intact (no cleared screen, no color change). One whose name and
# command line hold a right-to-left override (U+202E) and a zero width space (U+200B) is
# shown with them as \u202e and \u200b, not disguised by them.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child= bidi=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; [ -n "$bidi" ] && kill "$bidi" 2>/dev/null
	tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
export LC_ALL=C.UTF-8 # memtop shows UTF-8; tmux and its captures speak it

marker=evil-$$
: >"$tmp/child"
"$HELPERS/evil_name" "$marker" >"$tmp/child" &
child=$!
wait_ready "$tmp/child" || fail "evil_name never got ready"
# what a person should read: the command line with each ESC written as \e (or \x1b)
cmd=$(tr '\0' ' ' </proc/$child/cmdline | sed 's/ $//')
shown=$(printf '%s' "$cmd" | sed 's/\x1b/\\e/g')
shown_x=$(printf '%s' "$cmd" | sed 's/\x1b/\\x1b/g')

tm_start 160 30 "$MEMTOP -d 0.3"
wait_for "PID USER" || fail "memtop did not start"
tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt"
tm send-keys -l "$marker"
tm send-keys Enter
wait_for ", 1 shown" || fail "the filter did not leave one row"
# two refreshes, each of which would replay a raw escape sequence
next_refresh 10 && next_refresh 10 || fail "memtop stopped refreshing"
screen_text >"$tmp/screen"
row=$(awk -v p="$child" '$1 == p' "$tmp/screen")
case $row in
*" $shown" | *" $shown_x") printf 'row: %s\n' "$row" ;;
*) fail "the row does not end in the escaped command line: $row" ;;
esac
head -n 1 "$tmp/screen" | grep -q '^Mem\[.*\]$' || fail "line 1 is no longer the Mem meter: $(head -n 1 "$tmp/screen")"
grep -q '^Tasks ' "$tmp/screen" || fail "the status line is gone"
grep -q 'PID USER' "$tmp/screen" || fail "the column titles are gone"
# the kill confirmation names the process by its escaped comm
comm=$(cat /proc/$child/comm)
comm_e=$(printf '%s' "$comm" | sed 's/\x1b/\\e/g')
comm_x=$(printf '%s' "$comm" | sed 's/\x1b/\\x1b/g')
tm send-keys k
wait_for "Signal to send" || fail "k opened no signal prompt"
tm send-keys Enter
wait_for "[y/N]" || fail "no kill confirmation"
case $(screen_text | tail -n 1) in
*"to $child ($comm_e)? [y/N]"* | *"to $child ($comm_x)? [y/N]"*) ;;
*) fail "the confirmation does not show the escaped comm: $(screen_text | tail -n 1)" ;;
esac
tm send-keys n
wait_for "not sent" || fail "n did not cancel"
screen_text | head -n 1 | grep -q '^Mem\[' || fail "after the prompt line 1 lost the Mem meter"
# the row is drawn like any other row: no red, no attribute from the name
tm capture-pane -p -e >"$tmp/attrs"
esc=$(printf '\033')
grep "$child" "$tmp/attrs" | grep -q "$esc\[31m" && fail "the name turned text red"

# the invisible characters: filter for the second process
: >"$tmp/bidi"
"$HELPERS/evil_name" --bidi "bidi-$$" >"$tmp/bidi" &
bidi=$!
wait_ready "$tmp/bidi" || fail "evil_name --bidi never got ready"
tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt"
tm send-keys C-u
tm send-keys -l "bidi-$$"
tm send-keys Enter
wait_for "invoice" || fail "the filter did not show the --bidi process"
next_refresh || fail "memtop did not refresh"
screen_text >"$tmp/screen"
row=$(awk -v p="$bidi" '$1 == p' "$tmp/screen")
case $row in
*' invoice\u202egpj.exe\u200b-argv bidi-'$$) printf 'row: %s\n' "$row" ;;
*) fail "the row does not end in the escaped command line: $row" ;;
esac
rlo=$(printf '\342\200\256')
zwsp=$(printf '\342\200\213')
if grep -q "$rlo\|$zwsp" "$tmp/screen"; then
	fail "the screen shows U+202E or U+200B raw: $(grep "$rlo\|$zwsp" "$tmp/screen")"
fi
tm send-keys k
wait_for "Signal to send" || fail "k opened no signal prompt"
tm send-keys Enter
wait_for "[y/N]" || fail "no kill confirmation"
case $(screen_text | tail -n 1) in
*"to $bidi (\u202egpj.exe\u200b)? [y/N]"*) ;;
*) fail "the confirmation does not show the escaped comm: $(screen_text | tail -n 1)" ;;
esac
tm send-keys n
exit 0
