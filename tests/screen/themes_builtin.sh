#!/bin/sh
# The themes of themes/ are compiled in: memtop copied out of its tree, with no themes
# directory beside it, starts with NO_COLOR (mono, drawn without color) and with each
# theme by name, drawing the column titles in the same colors as the memtop of the tree,
# which reads the files; V goes through them. A file in a themes directory (here the one
# beside the copy) still adds a theme and overrides one compiled in.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
src=$(cd "${TESTS:-$(dirname "$0")/..}/.." && pwd)
[ -d "$src/themes" ] || skip "no themes/ beside the tests"
mkdir "$tmp/bin"
cp "$MEMTOP" "$tmp/bin/memtop" || fail "cannot copy $MEMTOP"
copy=$tmp/bin/memtop
installed=$(grep -ao '/[^"]*/share/memtop/themes' "$MEMTOP" | head -n 1)
[ ! -d "$installed" ] || echo "note: $installed exists; the copy could read its files too"

esc=$(printf '\033')
# titles: the column titles' line with its colors and attributes
titles() { tm capture-pane -p -e | grep 'PID USER' | head -n 1; }
# start NAME CMD: runs CMD on a 120x30 terminal, its stderr in $tmp/NAME.err, and waits
# for the table
start() {
	_name=$1
	shift
	tm_start 120 30 "TERM=xterm-256color $* 2>'$tmp/$_name.err'; echo \$? >'$tmp/$_name.rc'; sleep 30"
	wait_for "PID USER" || fail "$*: no table drawn: $(cat "$tmp/$_name.err")"
}

NO_COLOR=1 "$copy" -b -n 1 -p $$ >"$tmp/batch" 2>"$tmp/batch.err" ||
	fail "NO_COLOR=1 memtop -b, copied: exit $?: $(cat "$tmp/batch.err")"

start nocolor "NO_COLOR=1 '$copy' -p $$"
if tm capture-pane -p -e | grep -Eq "$esc\[([0-9]+;)*([34][0-7]|[34]8;5;[0-9]+)(;[0-9]+)*m"; then
	fail "NO_COLOR=1, copied: colors drawn"
fi
[ -s "$tmp/nocolor.err" ] && fail "NO_COLOR=1, copied: stderr says $(cat "$tmp/nocolor.err")"
tm_kill

n=0
for f in "$src"/themes/*.theme; do
	name=${f##*/}
	name=${name%.theme}
	start "tree-$name" "'$MEMTOP' --theme '$name' -p $$"
	titles >"$tmp/tree-$name"
	tm_kill
	start "copy-$name" "'$copy' --theme '$name' -p $$"
	titles >"$tmp/copy-$name"
	tm_kill
	[ -s "$tmp/copy-$name.err" ] && fail "--theme $name, copied: stderr says $(cat "$tmp/copy-$name.err")"
	cmp -s "$tmp/tree-$name" "$tmp/copy-$name" ||
		fail "--theme $name: the copy drew the titles as $(cat -v "$tmp/copy-$name"), the tree's memtop as $(cat -v "$tmp/tree-$name")"
	n=$((n + 1))
done
[ $n -ge 4 ] || fail "only $n themes in $src/themes"

# V through the compiled-in themes, the 256 one's palette colors drawn
start cycle "'$copy' -p $$"
tm send-keys V
wait_for "theme 256" || fail "V, copied: did not go to 256"
eventually $HANG sh -c "tmux -L '$TMUX_SOCK' capture-pane -p -e | grep -q '[34]8;5;'" ||
	fail "V to 256, copied: no palette color drawn"
tm send-keys V
wait_for "theme light" || fail "a second V, copied: did not go to light"
tm send-keys V
wait_for "theme mono" || fail "a third V, copied: did not go to mono"
tm_kill

# a themes directory beside the copy: a theme added, one compiled in overridden (the table
# header white on red, 41, where light has its own)
mkdir "$tmp/themes"
printf 'table_header white red\n' >"$tmp/themes/extra.theme"
printf 'table_header white red\n' >"$tmp/themes/light.theme"
for name in extra light; do
	start "file-$name" "'$copy' --theme $name -p $$"
	case "$(titles)" in
	*"[41m"* | *";41m"* | *";41;"*) ;;
	*) fail "--theme $name from $tmp/themes: the titles are not white on red: $(titles | cat -v)" ;;
	esac
	grep -q "^memtop: theme $tmp/bin/../themes/$name.theme: 22 roles missing" "$tmp/file-$name.err" ||
		fail "--theme $name: the file's warning is not on stderr: $(cat "$tmp/file-$name.err")"
	tm_kill
done
echo "$n themes compiled in: drawn by a copy as by the tree's memtop, NO_COLOR mono, V cycles; files add and override"
