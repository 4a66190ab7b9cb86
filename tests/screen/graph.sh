#!/bin/sh
# g: at 120x40 the memory and activity graphs above the process table, in Braille, RAM
# (MemTotal as memtop shows sizes) labelled on the memory graph's axis (its top, where it
# lies just above the data, else its dotted line), the time axes of the window (the width
# in dots times the interval, 53 and 54 s) marked at -30s, the table below still with
# rows; g again hides them. At 80x24 under LANG=C, g opens them on a screen of their own in
# ASCII only, ) lengthens the window to a minute (marks -60s -30s), Esc returns.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
locale -a | grep -qix 'c\.utf-\?8' || skip "no C.UTF-8 locale"
export LC_ALL=C.UTF-8 # tmux itself and its captures speak UTF-8

total=$(fmt_kb "$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)")

tm_start 120 40 "env LANG=C.UTF-8 '$MEMTOP' -d 0.5"
wait_for "PID USER" || fail "memtop did not start"
tm send-keys g
wait_for "Activity" || fail "g did not show the graphs"
# a refresh or two into the graphs, and a whole frame: captured again (10 s at most) until
# one is not a frame the terminal was still drawing (the checks below then say what lacks)
next_refresh 10 && next_refresh 10 || fail "memtop stopped refreshing"
i=0
while :; do
	screen_text >"$tmp/pane"
	l_m=$(grep -n '^Memory ' "$tmp/pane" | head -1 | cut -d: -f1)
	l_t=$(grep -n 'PID USER' "$tmp/pane" | head -1 | cut -d: -f1)
	[ -n "$l_m" ] && [ -n "$l_t" ] && [ $((l_t - l_m)) = 12 ] &&
		sed -n "$((l_t - 1))p" "$tmp/pane" | grep -q 'now$' &&
		tail -n 1 "$tmp/pane" | grep -q '^F1Help' &&
		[ "$(grep -c '^ *[0-9][0-9]* [a-z]' "$tmp/pane")" -ge 10 ] &&
		LC_ALL=C grep -q "$(printf '\342[\240-\243][\200-\277]')" "$tmp/pane" && break
	i=$((i + 1))
	[ $i -le 100 ] || break
	sleep 0.1
done
cat "$tmp/pane"
legend=$(grep -n '^Memory ' "$tmp/pane" | head -1)
[ -n "$legend" ] || fail "no line starting with the memory graph's legend"
for w in used cache swap Activity faults/s swap-in/s "stall us/s" "PSI some"; do
	printf '%s\n' "$legend" | grep -qF "$w" ||
		sed -n "$((${legend%%:*} + 1))p" "$tmp/pane" | grep -qF "$w" ||
		fail "the legends lack '$w'"
done
# the memory axis is scaled to what it shows (used, cache, swap: far below RAM on this
# machine), its top a size; RAM, out of that range, is no line of it
top=$(sed -n "$((${legend%%:*} + 2))p" "$tmp/pane" | sed -n 's/^ *\([0-9.]*[KMGT]\)│.*/\1/p')
[ -n "$top" ] || fail "the memory axis's top is not labelled with a size"
[ "$top" != "$total" ] || fail "the memory axis is scaled to RAM ($total), not to what it shows"
grep -Eq '^ +-30s +now +-30s +now$' "$tmp/pane" || fail "no time axes marked -30s and now"
LC_ALL=C grep -q "$(printf '\342[\240-\243][\200-\277]')" "$tmp/pane" ||
	fail "no Braille characters in the graphs"
# the pane lies between the header and the column titles, the time axis just above them
l_mem=${legend%%:*}
l_titles=$(grep -n 'PID USER' "$tmp/pane" | cut -d: -f1)
[ "$l_mem" -lt "$l_titles" ] || fail "the graphs are not above the table"
[ $((l_titles - l_mem)) = 12 ] || fail "the pane is not 12 rows: legend at $l_mem, titles at $l_titles"
sed -n "$((l_titles - 1))p" "$tmp/pane" | grep -q 'now$' || fail "the line above the table is not the time axis"
rows_with=$(grep -c '^ *[0-9][0-9]* [a-z]' "$tmp/pane")
[ "$rows_with" -ge 10 ] || fail "only $rows_with process rows under the graphs"
tail -n 1 "$tmp/pane" | grep -q '^F1Help' || fail "the F-key line is gone"
tm send-keys g
wait_gone "Activity" || fail "g again did not hide the graphs"
# the table takes the pane's 12 rows back (or shows every process): read again until a
# whole frame is captured, not one the terminal was still drawing
for i in $(seq 50); do
	rows_after=$(screen_text | grep -c '^ *[0-9][0-9]* [a-z]')
	shown=$(screen_text | sed -n 's/^Tasks [0-9]*, \([0-9]*\) shown.*/\1/p')
	want=$((rows_with + 12))
	[ "$want" -le "$shown" ] || want=$shown
	[ "$rows_after" -ge "$want" ] && break
	sleep 0.1
done
[ "$rows_after" -ge "$want" ] || fail "the table did not grow back: $rows_after rows, not $want"
tm_kill

# 80x24, ASCII: a screen of their own
TMUX_SOCK="memtop-test-$$-c"
tm_start 80 24 "env LANG=C LC_ALL=C '$MEMTOP' -d 0.5"
wait_for "PID USER" || fail "memtop under LANG=C did not start"
tm send-keys g
wait_for "Memory and activity over time" || fail "g at 80x24 did not open the graph screen"
tm send-keys ')'
wait_for "-30s" || fail ") did not make the window a minute"
# a whole frame of the minute's window (10 s at most), as above
i=0
while :; do
	screen_text >"$tmp/c"
	[ "$(grep -Ec '^ +-1m +-30s +now$' "$tmp/c")" = 2 ] &&
		grep -q "^Memory \* used .* + cache .* o avail .* x swap " "$tmp/c" &&
		grep -Eq '^ +0\|.*[*+ox]' "$tmp/c" && break
	i=$((i + 1))
	[ $i -le 100 ] || break
	sleep 0.1
done
cat "$tmp/c"
grep -q "^Memory \* used .* + cache .* o swap " "$tmp/c" || fail "no ASCII legend"
grep -Eq "^ *[0-9.]+[KMGT]\|" "$tmp/c" || fail "the memory axis's top is not labelled with a size"
[ "$(grep -Ec '^ +-60s +-30s +now$' "$tmp/c")" = 2 ] || fail "not two time axes of a minute"
grep -Eq '^ +0\|.*[*+ox]' "$tmp/c" || fail "no series drawn in ASCII"
if LC_ALL=C grep -n '[^ -~]' "$tmp/c"; then
	fail "under LANG=C the graphs hold characters outside printable ASCII"
fi
tm send-keys Escape
wait_for "PID USER" || fail "Esc did not return to the table"
screen_text | grep -q "Memory and activity" && fail "the graph screen is still shown"
echo "pane at 120x40 (RAM $total on the axis), screen of its own at 80x24 in ASCII"
