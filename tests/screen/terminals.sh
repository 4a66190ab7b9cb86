#!/bin/sh
# A terminal without colors (vt100) still gets the full layout; an unknown TERM, and one
# that cannot move the cursor (dumb), end with a one-line message, not a crash or a
# garbled line.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
infocmp vt100 >/dev/null 2>&1 || skip "no terminfo entry for vt100"
infocmp nosuchterm >/dev/null 2>&1 && skip "nosuchterm has a terminfo entry here"
infocmp dumb >/dev/null 2>&1 || skip "no terminfo entry for dumb"

# (timeout: memtop drawing under TERM=dumb would not end by itself)
tm_start 100 30 "TERM=dumb timeout --foreground 10 '$MEMTOP' 2>'$tmp/err_dumb'; echo \$? >'$tmp/rc_dumb';
	TERM=nosuchterm '$MEMTOP' 2>'$tmp/err'; echo \$? >'$tmp/rc'; TERM=vt100 '$MEMTOP'"
wait_file "$tmp/rc" 20 || fail "memtop under TERM=dumb or nosuchterm did not exit: $(screen_text)"
rc=$(cat "$tmp/rc")
printf 'TERM=nosuchterm: exit %s: %s\n' "$rc" "$(cat "$tmp/err")"
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || fail "under TERM=nosuchterm memtop exited $rc"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^memtop: .*'nosuchterm'.* -b" "$tmp/err" ||
	fail "under TERM=nosuchterm stderr is not one 'memtop: ' line naming the terminal and suggesting -b: $(cat "$tmp/err")"

# TERM=dumb: refused as an unknown terminal is, suggesting -b
rc_dumb=$(cat "$tmp/rc_dumb")
printf 'TERM=dumb: exit %s: %s\n' "$rc_dumb" "$(cat "$tmp/err_dumb")"
[ "$rc_dumb" = "$rc" ] || fail "under TERM=dumb memtop exited $rc_dumb, not $rc as for an unknown terminal"
[ "$(wc -l <"$tmp/err_dumb")" -eq 1 ] && grep -q "^memtop: .*'dumb'.* -b" "$tmp/err_dumb" ||
	fail "under TERM=dumb stderr is not one 'memtop: ' line naming it and suggesting -b: $(cat "$tmp/err_dumb")"

wait_for "PID USER" || fail "memtop under TERM=vt100 did not draw the table"
screen_text >"$tmp/screen"
head -n 1 "$tmp/screen" | grep -q '^Mem\[.*\]$' || fail "no Mem meter under vt100"
grep -q '^Tasks ' "$tmp/screen" || fail "no status line under vt100"
tail -n 1 "$tmp/screen" | grep -q '^F1Help' || fail "no F-key bar under vt100"
[ "$(grep -c '^ *[0-9][0-9]* ' "$tmp/screen")" -ge 5 ] || fail "few process rows under vt100"
# no color was sent to a terminal that has none (39 and 49 are tmux's own resets)
esc=$(printf '\033')
if tm capture-pane -p -e | grep -Eq "$esc\[([0-9]+;)*[34][0-8](;[0-9]+)*m"; then
	fail "colors were drawn under TERM=vt100"
fi
