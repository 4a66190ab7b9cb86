#!/bin/sh
# W saves the screen's settings (columns, sort and order, tree view, K, delay, the graph
# pane) to
# $XDG_CONFIG_HOME/memtop/memtoprc; the next start shows them; a flag given on the
# command line wins over them; a broken file stops memtop with one line naming it.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
export XDG_CONFIG_HOME="$tmp/config"
rc="$XDG_CONFIG_HOME/memtop/memtoprc"
status() { screen_text | grep '^Tasks '; }
# again N: ends this memtop; the next runs on a tmux server of its own (a new server on
# the old socket may meet the old one still exiting)
again() {
	tm_kill
	TMUX_SOCK=memtop-test-$$-$1
}

tm_start 140 40 "'$MEMTOP'"
wait_for "Sort RSS desc" || fail "memtop did not start with its defaults"
# tree view, kernel threads hidden, sorted by VSZ ascending, 2 s, without TXT
tm send-keys t K '>' I d
wait_for "Refresh interval in seconds:" || fail "d opened no delay prompt"
tm send-keys C-u
tm send-keys -l 2
tm send-keys Enter
tm send-keys f
wait_for "[x] TXT" || fail "f did not open the column picker"
n=$(screen_text | awk '/^\[/ { n++ } /^\[.\] TXT / { print n - 1; exit }')
tm send-keys Home
while [ "$n" -gt 0 ]; do tm send-keys Down; n=$((n - 1)); done
tm send-keys Space Escape
wait_for "Sort VSZ asc, tree" || fail "the settings to save are not on screen: $(status)"
tm send-keys g
wait_for "Activity" || fail "g opened no graph pane: $(screen_text | head -12)"
tm send-keys W
wait_for "settings saved to $rc" || fail "W did not say where it saved"
grep -qx 'tree=1' "$rc" && grep -qx 'hide_kthreads=1' "$rc" && grep -qx 'sort=vsz' "$rc" &&
	grep -qx 'invert=1' "$rc" && grep -qx 'delay=2' "$rc" && ! grep -q 'txt' "$rc" &&
	grep -qx 'graphs=1' "$rc" ||
	fail "the saved file: $(cat "$rc")"
tm send-keys q
again 2

# the next start shows them
tm_start 140 40 "'$MEMTOP'"
wait_for "Sort VSZ asc, tree  Refresh 2.0s" || fail "the saved settings were not used: $(status)"
screen_text | grep -q ' TXT ' && fail "TXT is shown though it was saved hidden"
screen_text | grep -q 'kthreadd' && fail "kernel threads are shown though saved hidden"
wait_for "Activity" || fail "the graph pane saved open is closed: $(screen_text | head -12)"
again 3

# flags win
tm_start 140 40 "'$MEMTOP' -o rss -d 1"
wait_for "Sort RSS desc, tree  Refresh 1.0s" || fail "flags did not win over the settings: $(status)"
again 4

# a broken file: one line, exit 2
echo 'columns=pid,nosuch' >"$rc"
tm_start 140 40 "'$MEMTOP' 2>'$tmp/err'; echo \$? >'$tmp/rc'"
wait_file "$tmp/rc" || fail "memtop did not exit on a broken settings file"
[ "$(cat "$tmp/rc")" = 2 ] || fail "a broken settings file: exit $(cat "$tmp/rc"), not 2"
[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^memtop: $rc line 1: columns: unknown column 'nosuch'" "$tmp/err" ||
	fail "a broken settings file said: $(cat "$tmp/err")"
# batch output takes flags only
"$MEMTOP" -b -n 1 >/dev/null || fail "memtop -b read the broken settings file"
cat "$tmp/err"
