#!/bin/sh
# The mouse, sent as the terminal sends it (SGR reports: ESC [ < button ; x ; y M for a
# press, m for a release; 64 and 65 the wheel), on a TERM whose terminfo has them
# (kmous=\E[<): a click on a column title sorts by it and again inverts, a click on the
# third row selects it, a double click opens its detail, the wheel scrolls the table, a
# click on F1Help in the key bar opens the help. With --no-mouse the same reports change
# nothing (and their bytes are no keys: the M in them would sort by RSS).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# click X Y: a press and a release of the left button at column X, line Y (from 1)
click() { tm send-keys -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$1" "$2" "$1" "$2")"; }
double() { tm send-keys -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm\033[<0;%d;%dM\033[<0;%d;%dm' "$1" "$2" "$1" "$2" "$1" "$2" "$1" "$2")"; }
wheel_down() { tm send-keys -l "$(printf '\033[<65;%d;%dM' "$1" "$2")"; }
# the line (from 1) of the column titles; the column (from 1) of a title in it
title_y() { screen_text | grep -n 'PID USER' | head -n 1 | cut -d: -f1; }
title_x() { screen_text | grep 'PID USER' | head -n 1 | awk -v t="$1" '{ print index($0, t) }'; }
# pid_at Y: the PID on line Y
pid_at() { screen_text | sed -n "${1}p" | awk '{ print $1 }'; }
# selected Y: line Y is drawn in the selected row's colors (black on cyan)
selected() { tm capture-pane -p -e | sed -n "${1}p" | grep -q "$(printf '\033')\[46m"; }
sort_is() { screen_text | grep '^Tasks ' | grep -q "Sort $1"; }

start() {
	tm_start 120 30 "TERM=xterm-256color '$MEMTOP' -o pid $*"
	wait_for "PID USER" || fail "memtop $* did not draw its table"
	next_refresh || fail "memtop $* does not refresh"
	y=$(title_y)
	sort_is "PID asc" || fail "not sorted by PID: $(screen_text | grep '^Tasks ')"
}

start
selected $((y + 1)) || fail "the first row is not the one selected"
third=$(pid_at $((y + 3)))
click 10 $((y + 3))
i=0
until selected $((y + 3)); do
	i=$((i + 1))
	[ $i -le 30 ] || fail "a click on the third row did not select it: $(tm capture-pane -p -e | sed -n "$((y + 1)),$((y + 3))p" | cat -v)"
	sleep 0.1
done
selected $((y + 1)) && fail "the first row is still drawn selected after a click on the third"
double 10 $((y + 3))
wait_for "Process $third " || fail "a double click on the third row (PID $third) did not open its detail"
tm send-keys Escape
wait_for "PID USER" || fail "Esc did not close the detail"

fourth=$(pid_at $((y + 4)))
wheel_down 10 $((y + 5))
i=0
until [ "$(pid_at $((y + 1)))" = "$fourth" ]; do
	i=$((i + 1))
	[ $i -le 30 ] || fail "the wheel did not scroll the table 3 rows: first row $(pid_at $((y + 1))), want $fourth"
	sleep 0.1
done

click "$(title_x RSS)" "$y"
i=0
until sort_is "RSS desc"; do
	i=$((i + 1))
	[ $i -le 30 ] || fail "a click on the RSS title did not sort by it: $(screen_text | grep '^Tasks ')"
	sleep 0.1
done
click "$(title_x RSS)" "$y"
i=0
until sort_is "RSS asc"; do
	i=$((i + 1))
	[ $i -le 30 ] || fail "a second click on the RSS title did not invert: $(screen_text | grep '^Tasks ')"
	sleep 0.1
done
click 3 30 # F1Help
wait_for "memtop " || fail "a click on F1Help did not open the help"
wait_for " - keys" || fail "a click on F1Help did not open the help"
tm_kill

# the same, without the mouse
start --no-mouse
first=$(pid_at $((y + 1)))
click "$(title_x RSS)" "$y"
click 10 $((y + 3))
wheel_down 10 $((y + 5))
click 3 30
sleep 1
next_refresh || fail "memtop --no-mouse stopped refreshing"
sort_is "PID asc" || fail "--no-mouse: a click on RSS sorted: $(screen_text | grep '^Tasks ')"
selected $((y + 1)) || fail "--no-mouse: the first row is no longer selected"
selected $((y + 3)) && fail "--no-mouse: a click selected the third row"
[ "$(pid_at $((y + 1)))" = "$first" ] || fail "--no-mouse: the wheel scrolled the table"
screen_text | grep -q " - keys" && fail "--no-mouse: a click opened the help"
screen_text | grep -q "F1Help" || fail "--no-mouse: the key bar is gone: $(screen_text | tail -n 2)"
tm_kill
echo "mouse: title click sorts and inverts, row click selects, double click opens, wheel scrolls, key bar runs F1; --no-mouse: none of it"
