#!/bin/sh
# The header's BPF line shows memtop's own cost after the BPF status: "CPU/refresh" and
# "RSS", the RSS being fmt_kb of the memtop process's /proc/PID/statm resident size, and
# the CPU what /proc/PID/stat counted between two refreshes (within its clock ticks). On a
# narrow terminal the CPU figure stays, at the right end.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

hz=$(getconf CLK_TCK)
page_kb=$(($(getconf PAGESIZE) / 1024))
tm_start 140 30 "exec '$MEMTOP' -d 1 -p $$"
wait_for "CPU/refresh" || fail "the header never showed memtop's CPU"
wait_for "BPF on" || fail "BPF never on" # loaded on a thread
mt=$(tm list-panes -F '#{pane_pid}')
ticks() { awk '{ print $14 + $15 }' "/proc/$mt/stat"; }
# bpf_line: the line after "Tasks ...", where the BPF status is
bpf_line() { screen_text | awk 'seen { print; exit } /^Tasks / { seen = 1 }'; }
figure() { bpf_line | sed -n "s|.*  $1 \\([^ ]*\\).*|\\1|p"; }

# after a refresh memtop sleeps for most of the second: what /proc says then is what it
# used up to that refresh, drawing included. A figure that disagrees is retried once (the
# machine may have delayed a refresh past the test's reading).
tries=0
while :; do
	next_refresh || fail "the clock stopped: $(screen_text)"
	t0=$(ticks)
	next_refresh || fail "the clock stopped: $(screen_text)"
	t1=$(ticks)
	rss=$(awk -v p="$page_kb" '{ print $2 * p }' "/proc/$mt/statm")
	line=$(bpf_line)
	cpu=$(figure CPU/refresh)
	shown=$(figure RSS)
	awk -v cpu="$cpu" -v t0="$t0" -v t1="$t1" -v hz="$hz" 'BEGIN {
		stat = (t1 - t0) * 1000 / hz
		tol = 2 * 1000 / hz + 5 + 0.05 * stat
		ok = cpu ~ /^[0-9.]+ms$/ && cpu + 0 > 0 && cpu + 0 >= stat - tol && cpu + 0 <= stat + tol
		printf "CPU/refresh %s, /proc/PID/stat %.0f ms (tolerance %.0f ms)\n", cpu, stat, tol
		exit !ok
	}' >"$tmp/cpu" && {
		# the resident size moves little once memtop is steady: 2 % or 256 kB either way
		lo=$(fmt_kb $((rss - (rss / 50 > 256 ? rss / 50 : 256))))
		hi=$(fmt_kb $((rss + (rss / 50 > 256 ? rss / 50 : 256))))
		[ "$shown" = "$(fmt_kb "$rss")" ] || [ "$shown" = "$lo" ] || [ "$shown" = "$hi" ]
	} && break
	tries=$((tries + 1))
	[ $tries -lt 2 ] || fail "$(cat "$tmp/cpu"); RSS '$shown', statm $rss kB ($(fmt_kb "$rss")): $line"
done
cat "$tmp/cpu"
echo "RSS $shown, statm $rss kB: $line"

# 50 columns, the least memtop draws on: the status is cut short of the CPU figure, which
# stands at the right end
tm kill-server
TMUX_SOCK=memtop-test-$$-narrow
tm_start 50 24 "exec '$MEMTOP' -d 1 -p $$"
wait_for "CPU/refresh" || fail "50 columns: no CPU/refresh: $(screen_text)"
wait_for "BPF on" || fail "50 columns: BPF never on: $(screen_text)" # loaded on a thread
line=$(bpf_line)
printf '%s\n' "$line" | grep -Eq '^BPF .*  CPU/refresh [0-9.]+ms *$' ||
	fail "50 columns: the BPF line is '$line'"
echo "50 columns: $line"
