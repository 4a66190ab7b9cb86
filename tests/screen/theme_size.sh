#!/bin/sh
# A long theme is read whole or refused, never cut: one of 10 KB (comments, then every
# role) loads with no warning; one over the 64 KiB a theme may have ends with one line
# saying it is too long, exit 2.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# long_theme FILE LINES: the default theme after LINES lines of comment
long_theme() {
	awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) print "# a comment line, number " i ", of a long theme" }' >"$1"
	cat "$TESTS/../themes/default.theme" >>"$1"
}
# run_to_exit NAME ARGS: runs memtop ARGS on the tmux terminal; waits for its exit status
n=0
run_to_exit() {
	name=$1
	shift
	n=$((n + 1))
	TMUX_SOCK=memtop-test-$$-$n
	tm_start 100 30 "'$MEMTOP' $* 2>'$tmp/$name.err'; echo \$? >'$tmp/$name.rc'; sleep 30"
	wait_file "$tmp/$name.rc" 30 || fail "memtop $* did not exit: $(screen_text)"
	tm_kill
}

long_theme "$tmp/long.theme" 200
run_to_exit long --theme "$tmp/long.theme" -n 1
echo "a $(wc -c <"$tmp/long.theme")-byte theme: exit $(cat "$tmp/long.rc"): $(cat "$tmp/long.err")"
[ "$(cat "$tmp/long.rc")" = 0 ] || fail "a $(wc -c <"$tmp/long.theme")-byte theme: exit $(cat "$tmp/long.rc")"
[ ! -s "$tmp/long.err" ] || fail "a $(wc -c <"$tmp/long.theme")-byte theme was not read whole: $(cat "$tmp/long.err")"

long_theme "$tmp/huge.theme" 1500
run_to_exit huge --theme "$tmp/huge.theme" -n 1
echo "a $(wc -c <"$tmp/huge.theme")-byte theme: exit $(cat "$tmp/huge.rc"): $(cat "$tmp/huge.err")"
[ "$(cat "$tmp/huge.rc")" = 2 ] || fail "a $(wc -c <"$tmp/huge.theme")-byte theme: exit $(cat "$tmp/huge.rc"), not 2"
[ "$(wc -l <"$tmp/huge.err")" = 1 ] &&
	grep -q "^memtop: theme '$tmp/huge.theme': too long for a theme (over 64 KiB)\$" "$tmp/huge.err" ||
	fail "a $(wc -c <"$tmp/huge.theme")-byte theme: not one line saying it is too long: $(cat "$tmp/huge.err")"
