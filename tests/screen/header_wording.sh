#!/bin/sh
# The header's wording: the Swp meter says "no swap" where /proc/meminfo has SwapTotal 0
# (else used/total); the rates of the first refresh, which span the time since boot, show
# as "-" (header and table) until the second refresh gives numbers; the cgroup root's
# USAGE is the kernel's own figure for it (v1 memory.usage_in_bytes at the root);
# --theme with a name that is no theme lists the themes.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# a long interval: the first refresh stays on screen for 3 s
tm_start 120 30 "$MEMTOP -d 3"
wait_for "Faults/s" || fail "memtop did not start"
swap=$(awk '/^SwapTotal:/ { print $2 }' /proc/meminfo)
if [ "$swap" = 0 ]; then
	wait_for "no swap]" || fail "SwapTotal is 0 and the meter does not say no swap: $(screen_text | sed -n 2p)"
	echo "SwapTotal 0: the meter says 'no swap'"
else
	screen_text | sed -n 2p | grep -q "no swap" && fail "SwapTotal is $swap kB and the meter says no swap"
	echo "SwapTotal $swap kB: the meter shows used/total"
fi
first=$(screen_text)
printf '%s\n' "$first" | grep -q '^Faults/s -  Major/s -' ||
	fail "the first refresh's rates are not '-': $(printf '%s\n' "$first" | grep Faults)"
printf '%s\n' "$first" | awk '/^ *PID / { for (i = 1; i <= NF; i++) if ($i == "MINF/s") c = i; next }
	c && $1 ~ /^[0-9]+$/ { n++; if ($c != "-") bad = 1 } END { exit bad || !n }' ||
	fail "the first refresh's MINF/s are not '-': $(printf '%s\n' "$first" | sed -n 7,9p)"
next_refresh 20 || fail "memtop did not refresh a second time"
eventually $HANG sh -c "tmux -L '$TMUX_SOCK' capture-pane -p | grep -Eq '^Faults/s [0-9.]+[KM]?  Major/s [0-9.]+'" ||
	fail "the second refresh's rates are not numbers: $(screen_text | grep Faults)"
echo "first refresh: '-' for the rates since boot; second: $(screen_text | grep -o '^Faults/s [^ ]*')"
tm_kill

# the cgroup root's USAGE: the kernel's figure for the root, read before and after
root=/sys/fs/cgroup/memory
if [ -r "$root/memory.usage_in_bytes" ]; then
	tm_start 160 40 "$MEMTOP -d 0.5 --cgroups"
	wait_for "USAGE" || fail "no cgroup table"
	shown() { screen_text | awk '$1 == "/" { print $2; exit }'; }
	same() {
		a=$(fmt_kb $(($(cat $root/memory.usage_in_bytes) / 1024)))
		s=$(shown)
		b=$(fmt_kb $(($(cat $root/memory.usage_in_bytes) / 1024)))
		[ "$s" = "$a" ] || [ "$s" = "$b" ]
	}
	eventually $HANG same || fail "the root's USAGE is $(shown), the kernel says $a"
	echo "the root's USAGE $(shown) is memory.usage_in_bytes at the root"
	tm_kill
fi

# --theme with no such theme: one line that names the themes
tm_start 100 10 "'$MEMTOP' --theme nosuch 2>'$tmp/err'; echo \$? >'$tmp/rc'; sleep 30"
wait_file "$tmp/rc" || fail "memtop --theme nosuch did not end"
[ "$(cat "$tmp/rc")" = 2 ] || fail "memtop --theme nosuch exited $(cat "$tmp/rc")"
grep -qx "memtop: theme 'nosuch': no such theme; the themes are default, 256, light, mono, or a file's path" "$tmp/err" ||
	fail "memtop --theme nosuch said: $(cat "$tmp/err")"
echo "--theme nosuch: $(cat "$tmp/err")"
