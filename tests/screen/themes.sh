#!/bin/sh
# --theme: a missing or broken theme ends with one 'memtop: ' line and exit 2; the mono
# theme draws the layout with no color but the selected row still stands out.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

printf 'header cyan default bold\nlabel purple default\n' >"$tmp/bad.theme"
# run_to_exit NAME ARGS: runs memtop ARGS on the tmux terminal; waits for its exit status
run_to_exit() {
	name=$1
	shift
	tm_start 100 30 "'$MEMTOP' $* 2>'$tmp/$name.err'; echo \$? >'$tmp/$name.rc'; sleep 30"
	wait_file "$tmp/$name.rc" || fail "memtop $* did not exit: $(screen_text)"
	tm_kill
}
for case in "missing:--theme no-such-theme:no-such-theme" "broken:--theme $tmp/bad.theme:line 2"; do
	name=${case%%:*} rest=${case#*:}
	args=${rest%%:*} want=${rest#*:}
	run_to_exit "$name" "$args"
	rc=$(cat "$tmp/$name.rc")
	[ "$rc" = 2 ] || fail "$args: exit $rc, want 2"
	[ "$(wc -l <"$tmp/$name.err")" = 1 ] && grep -q "^memtop: .*$want" "$tmp/$name.err" ||
		fail "$args: stderr is not one 'memtop: ' line saying '$want': $(cat "$tmp/$name.err")"
done

tm_start 100 30 "'$MEMTOP' --theme mono"
wait_for "PID USER" || fail "memtop --theme mono did not draw the table"
esc=$(printf '\033')
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
echo "themes: missing and broken rejected, mono drawn without color"
