#!/bin/sh
# memtop-test: sanitized
# --theme: a theme that cannot be read ends with one 'memtop: ' line and exit 2. A theme that
# gives one role loads: that role has its colors, the others the default theme's, and one
# stderr line names the roles missing; a bad line is one more line naming file and line.
# The mono theme draws the layout with no color but the selected row still stands out.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# run_to_exit NAME ARGS: runs memtop ARGS on the tmux terminal; waits for its exit status
run_to_exit() {
	name=$1
	shift
	tm_start 100 30 "'$MEMTOP' $* 2>'$tmp/$name.err'; echo \$? >'$tmp/$name.rc'; sleep 30"
	wait_file "$tmp/$name.rc" || fail "memtop $* did not exit: $(screen_text)"
	tm_kill
}
run_to_exit missing --theme no-such-theme
rc=$(cat "$tmp/missing.rc")
[ "$rc" = 2 ] || fail "--theme no-such-theme: exit $rc, want 2"
[ "$(wc -l <"$tmp/missing.err")" = 1 ] && grep -q "^memtop: .*no-such-theme" "$tmp/missing.err" ||
	fail "--theme no-such-theme: stderr is not one 'memtop: ' line naming it: $(cat "$tmp/missing.err")"

esc=$(printf '\033')
# table_header line by line, as tmux shows it: the colors before "PID USER"
head_colors() { tm capture-pane -p -e | grep 'PID USER' | sed 's/PID USER.*//' | tr -d ' '; }
# one_role NAME THEME_TEXT: memtop --theme with that file draws its table with table_header
# white on red (41) where the default is black on green (42); it quits with q and exit 0
one_role() {
	printf "$2" >"$tmp/$1.theme"
	tm_start 100 30 "'$MEMTOP' --theme '$tmp/$1.theme' 2>'$tmp/$1.err'; echo \$? >'$tmp/$1.rc'; sleep 30"
	wait_for "COMMAND" || fail "memtop --theme $1 did not draw the table"
	c=$(head_colors)
	case "$c" in
	*"[41m"*) ;;
	*) fail "$1: the table header is not red ($(printf %s "$c" | od -c | head -n 2))" ;;
	esac
	tm capture-pane -p -e | grep -q "$esc\[42m" && fail "$1: green background drawn, not the theme's"
	# roles the theme lacks are the default theme's: the sort column's cyan (46)
	tm capture-pane -p -e | grep 'PID USER' | grep -q "$esc\[46m" ||
		fail "$1: the sort column lost the default theme's cyan"
	tm send-keys q
	wait_file "$tmp/$1.rc" || fail "memtop --theme $1 did not quit: $(screen_text)"
	tm_kill
	[ "$(cat "$tmp/$1.rc")" = 0 ] || fail "$1: exit $(cat "$tmp/$1.rc") after q"
}
one_role single 'table_header white red\n'
[ "$(wc -l <"$tmp/single.err")" = 1 ] &&
	grep -q "^memtop: theme $tmp/single.theme: 22 roles missing, default colors used: header, label, " "$tmp/single.err" ||
	fail "a one-role theme: stderr is not one line naming the 22 roles missing: $(cat "$tmp/single.err")"
one_role broken '# one role and bad lines\ntable_header white red\nlabel purple default\nnosuchrole red default\n'
grep -q "^memtop: theme $tmp/broken.theme:3: unknown color 'purple'; label keeps the default colors\$" "$tmp/broken.err" &&
	grep -q "^memtop: theme $tmp/broken.theme:4: unknown role 'nosuchrole'" "$tmp/broken.err" &&
	grep -q "^memtop: theme $tmp/broken.theme: 21 roles missing, default colors used: header, value, " "$tmp/broken.err" &&
	[ "$(wc -l <"$tmp/broken.err")" = 3 ] ||
	fail "bad theme lines: stderr is not the 3 lines expected: $(cat "$tmp/broken.err")"

tm_start 100 30 "'$MEMTOP' --theme mono"
wait_for "PID USER" || fail "memtop --theme mono did not draw the table"
if tm capture-pane -p -e | grep -Eq "$esc\[([0-9]+;)*[34][0-7](;[0-9]+)*m"; then
	fail "colors were drawn with the mono theme"
fi
# the selected row (the first one, line 8) is drawn in reverse video: the last attribute
# set before its first character is reverse (tmux carries attributes across lines)
tm capture-pane -p -e | sed -n 7,8p | tr -d '\n' | sed "s/$esc\[[0-9;]*m\$//" >"$tmp/rows"
last=$(grep -o "$esc\[[0-9;]*m" "$tmp/rows" | grep -Ev "\[[34]9m" | tail -n 1)
case "$last" in
*"[7m" | *";7m") ;;
*) fail "the selected row is not reversed (last attributes: $(printf %s "$last" | od -c | head -n 1))" ;;
esac
echo "themes: missing rejected, one role and bad lines load over the default, mono drawn without color"
