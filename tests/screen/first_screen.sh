#!/bin/sh
# The first refresh reads the command lines and the costly columns of the rows it shows
# only; the others' command lines are read right after the first screen is drawn, not at
# the next refresh. With a refresh an hour away: every row of the first screen shows its
# command line as /proc/PID/cmdline gives it and its PSS (not '-'); a search for the
# command line of a process below the first screen finds it with no refresh in between
# (the clock on the status line unchanged).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to read every process's smaps_rollup"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child= sleepers=
trap 'tm_kill; kill $child $sleepers 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# more processes than one screen holds, the marked one started last: sorted by pid, it is
# below the first screen (unless the pids wrapped)
start_sleepers 60
marker=first-screen-$$
start_child 0 0 "$marker"

# first_screen COLUMN: memtop sorted by pid with the columns pid, COLUMN, cmd, a refresh an
# hour away; each row of its first screen checked: its command line against /proc's
# (kernel threads: [comm]; longer ones are cut to fit), and with pss its PSS a number where
# the process still lives (pid 1 left out: unreadable even for root in a sandbox)
first_screen() {
	tm_start 160 30 "$MEMTOP -d 3600 -o pid --columns pid,$1,cmd"
	wait_for "Sort PID asc" || fail "memtop did not start sorted by pid"
	wait_for "PID   $(echo "$1" | tr a-z A-Z)" || fail "no table: $(screen_text)"
	clock=$(screen_clock)
	[ -n "$clock" ] || fail "no clock on the status line: $(screen_text)"
	[ "$(screen_text | grep -c -- "$marker")" = 0 ] ||
		echo "the marked process is on the first screen already"
	screen_text | awk 'NR > 7 && $1 ~ /^[0-9]+$/' >"$tmp/rows"
	checked=0
	while read -r pid fig cmd; do
		[ -d "/proc/$pid" ] || continue
		want=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | sed 's/ *$//')
		if [ -z "$want" ]; then # a kernel thread: [comm], the name cut to 15 bytes
			comm=$(head -c 15 "/proc/$pid/comm" 2>/dev/null)
			case "$cmd" in
			"[kworker/"* | "[$comm"*) ;; # a worker's current work changes
			*) [ -d "/proc/$pid" ] && fail "pid $pid shows '$cmd', its comm is '$comm'" ;;
			esac
		elif [ ${#want} -le 100 ] && [ "$cmd" != "$want" ] && [ -d "/proc/$pid" ]; then
			fail "pid $pid shows command '$cmd', /proc/$pid/cmdline '$want'"
		fi
		[ "$1" != pss ] || [ "$pid" = 1 ] || [ "$fig" != - ] || ! [ -d "/proc/$pid" ] ||
			fail "pid $pid shows no PSS on the first screen: $(screen_text)"
		checked=$((checked + 1))
	done <"$tmp/rows"
	[ "$checked" -ge 10 ] || fail "only $checked rows checked: $(cat "$tmp/rows")"
	echo "first screen ($1): $checked rows with their command line"
}

first_screen pss
tm_kill
first_screen rss

# the marked process's command line, read after the first screen, found by a search
tm send-keys /
wait_for "Search:" || fail "/ opened no search prompt"
tm send-keys -l "$marker"
tm send-keys Enter
wait_gone "Search:" || fail "Enter did not close the search prompt"
wait_for "$marker" || fail "the search did not find the marked process's command line"
screen_text | grep -E "^ *$child " | grep -qF -- "$marker" ||
	fail "the row of $child lacks its command line: $(screen_text)"
[ "$(screen_clock)" = "$clock" ] || fail "memtop refreshed in between ($clock, $(screen_clock))"
echo "search: found $child by its command line, no refresh in between"
