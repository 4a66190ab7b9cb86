#!/bin/sh
# F2 orders the columns: F7 moves TXT up past SHR, VSZ and RSS, and the table shows it
# there; W saves the order (order=..., TXT before RSS) and the next start shows it so; a
# settings file naming no such column in order= stops memtop with one line.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
# the settings file of its own
rc="$tmp/config/memtop/memtoprc" XDG_CONFIG_HOME="$tmp/config"
export XDG_CONFIG_HOME
titles() { screen_text | grep -E '^ *PID ' | head -n 1 | tr -s ' ' | sed 's/^ //'; }
txt_first() { titles | grep -q '^PID USER TXT RSS VSZ SHR DATA '; }

tm_start 160 40 "'$MEMTOP' -d 0.5"
wait_for "PID USER" || fail "memtop did not start"
titles | grep -q '^PID USER RSS VSZ SHR TXT DATA ' || fail "the default order is not PID USER RSS VSZ SHR TXT: $(titles)"
tm send-keys F2
wait_for "F7 F8 move" || fail "F2 opened no column picker"
n=$(screen_text | awk '/^\[/ { n++ } /^\[.\] TXT / { print n - 1; exit }')
tm send-keys Home
while [ "$n" -gt 0 ]; do tm send-keys Down; n=$((n - 1)); done
tm send-keys F7 F7 F7
# the picker lists the new order: TXT right after USER (once the three keys are read)
txt_fourth() { screen_text | grep '^\[' | sed -n '4p' | grep -q "] TXT "; }
eventually $HANG txt_fourth || fail "F7 did not move TXT up the list: $(screen_text | grep '^\[' | head -5)"
tm send-keys Escape
eventually $HANG txt_first || fail "the table does not show TXT before RSS: $(titles)"
tm send-keys W
wait_for "settings saved to $rc" || fail "W did not save"
grep -q '^order=pid,ppid,user,txt,rss,vsz,shr,data,' "$rc" || fail "the saved order: $(grep order "$rc")"
tm_kill
TMUX_SOCK=memtop-test-$$-2
tm_start 160 40 "'$MEMTOP' -d 0.5"
wait_for "PID USER" || fail "memtop did not start again"
eventually $HANG txt_first || fail "the next start does not keep the order: $(titles)"
echo "F7 moved TXT before RSS, W saved '$(grep '^order=' "$rc" | cut -c1-40)...', the next start kept it"
tm_kill

echo 'order=pid,nosuch' >"$rc"
TMUX_SOCK=memtop-test-$$-3
tm_start 100 10 "'$MEMTOP' 2>'$tmp/err'; echo \$? >'$tmp/rc'; sleep 30"
wait_file "$tmp/rc" || fail "memtop with a bad order= did not end"
[ "$(cat "$tmp/rc")" = 2 ] || fail "memtop with a bad order= exited $(cat "$tmp/rc")"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "memtoprc line 1: order: no column 'nosuch'" "$tmp/err" ||
	fail "a bad order= said: $(cat "$tmp/err")"
echo "order=pid,nosuch: $(cat "$tmp/err")"
