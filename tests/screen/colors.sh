#!/bin/sh
# NO_COLOR set to anything (no-color.org) draws no color, only attributes; --theme wins over
# it. The light theme draws the rows' text in black. T goes to the next shipped theme
# live (the 256-color one after the default). Every role a shipped theme sets is one the
# screens draw with.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
src=$(cd "$(dirname "$MEMTOP")" && cd "$(git rev-parse --show-toplevel 2>/dev/null || echo ..)" && pwd)
[ -d "$src/themes" ] || src=$(cd "$TESTS/.." && pwd)

# the roles each theme sets are drawn somewhere in ui/ (ROLE_NAME used outside theme.c)
for t in "$src"/themes/*.theme; do
	for role in $(sed 's/#.*//' "$t" | awk 'NF { print $1 }'); do
		R=ROLE_$(echo "$role" | tr a-z A-Z)
		grep -l "\\b$R\\b" "$src"/ui/*.c | grep -qv '/theme\.c$' ||
			fail "${t##*/}: role $role ($R) is drawn nowhere in ui/"
	done
done

esc=$(printf '\033')
# colors NAME: the color codes (SGR 30-37, 40-47, 90-97, 100-107, 38;..., 48;...) of the
# screen, one a line
colors() {
	tm capture-pane -p -e | grep -o "$esc\[[0-9;]*m" | tr -d "$esc[m" | tr ';' '\n' |
		awk '($1 >= 30 && $1 <= 37) || ($1 >= 40 && $1 <= 47) || ($1 >= 90 && $1 <= 97) ||
			($1 >= 100 && $1 <= 107) || $1 == 38 || $1 == 48'
}
run() {
	tm_start 120 30 "$*"
	wait_for "PID USER" || fail "$* did not draw the table"
}

run "NO_COLOR=1 TERM=xterm-256color '$MEMTOP'"
[ -z "$(colors)" ] || fail "NO_COLOR=1: colors drawn: $(colors | sort -u | tr '\n' ' ')"
tm capture-pane -p -e | grep 'PID USER' | grep -q "$esc\[7m\|;7m" ||
	fail "NO_COLOR=1: the column titles are not in reverse video"
tm_kill
run "NO_COLOR= TERM=xterm-256color '$MEMTOP'"
[ -n "$(colors)" ] || fail "NO_COLOR empty: no colors drawn"
tm_kill
run "NO_COLOR=yes TERM=xterm-256color '$MEMTOP' --theme default"
[ -n "$(colors)" ] || fail "NO_COLOR=yes --theme default: no colors drawn"
tm_kill

# light: the rows (not the one selected) in black, 30
run "TERM=xterm-256color '$MEMTOP' --theme light"
y=$(screen_text | grep -n 'PID USER' | head -n 1 | cut -d: -f1)
tm capture-pane -p -e | sed -n "$((y + 2)),$((y + 4))p" | grep -q "$esc\[30m" ||
	fail "light: rows not drawn in black: $(tm capture-pane -p -e | sed -n "$((y + 2))p" | cut -c 1-60 | cat -v)"
colors | grep -qx 33 && fail "light: yellow drawn on a light background"
tm_kill

# V: from the default to 256 (palette colors, 38;5;N), shown on the bottom line
run "TERM=xterm-256color '$MEMTOP'"
tm capture-pane -p -e | grep -q "38;5;" && fail "the default theme drew palette colors"
tm send-keys V
wait_for "theme 256" || fail "V did not say the theme"
i=0
until tm capture-pane -p -e | grep -q "38;5;\|48;5;"; do
	i=$((i + 1))
	[ $i -le 30 ] || fail "V: no 256-color drawn after it"
	sleep 0.1
done
tm send-keys V
wait_for "theme light" || fail "a second V did not go to light"
tm send-keys V
wait_for "theme mono" || fail "a third V did not go to mono"
tm send-keys y # a key (acknowledge: nothing else here) clears the message
wait_gone "theme mono" || fail "the message stayed"
[ -z "$(colors)" ] || fail "V to mono: colors still drawn: $(colors | sort -u | tr '\n' ' ')"
echo "colors: NO_COLOR mono unless --theme, light draws black text, V cycles live, every role set is drawn"
