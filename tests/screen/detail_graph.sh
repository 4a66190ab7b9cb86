#!/bin/sh
# The detail screen's fourth section (4, or g) graphs the process over time: its RSS and
# swap on one axis, topped by its RSS as /proc says it, and its minor and major faults a
# second, each to its own peak; the minor faults near the rate the child takes them. Under
# LANG=C the same in ASCII.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
locale -a | grep -qix 'c\.utf-\?8' || skip "no C.UTF-8 locale"
export LC_ALL=C.UTF-8

start_child 48 2000 detail-graph-$$
rss() { fmt_kb "$(awk '$1 == "VmRSS:" { print $2 }' "/proc/$child/status")"; }

for lang in C.UTF-8 C; do
	tm_kill
	TMUX_SOCK="memtop-test-$$-$lang"
	tm_start 120 40 "env LANG=$lang LC_ALL=$lang '$MEMTOP' -d 0.5 --no-bpf -p $child"
	wait_for "alloc_child" || fail "memtop did not show the child"
	tm send-keys Enter
	wait_for "Process $child (alloc_child)" || fail "Enter did not open the detail screen"
	tm send-keys 4
	wait_for "Page faults" || fail "4 did not show the graphs"
	ok=0 i=0
	while [ $i -lt 30 ]; do # the rates settle after a refresh or two
		sleep 0.5
		screen_text >"$tmp/s"
		want=$(rss)
		minor=$(sed -n 's/.*Page faults . minor\/s \([0-9.]*\) .*/\1/p' "$tmp/s")
		if grep -q "^Memory . RSS $want . swap 0K" "$tmp/s" &&
			grep -Eq "^ *$want[│|]" "$tmp/s" &&
			awk -v m="${minor:-0}" 'BEGIN { exit !(m >= 1000 && m <= 4000) }'; then
			ok=1
			break
		fi
		i=$((i + 1))
	done
	cat "$tmp/s"
	[ $ok = 1 ] || fail "$lang: no RSS graph topped by $want, or minor/s ${minor:-none} not near 2000"
	grep -q ' 1 Mappings .* 4 Graphs' "$tmp/s" || fail "no Graphs tab"
	[ "$(grep -o ' now' "$tmp/s" | wc -l)" = 2 ] || fail "$lang: not two time axes"
	if [ $lang = C ]; then
		LC_ALL=C grep -n '[^ -~]' "$tmp/s" && fail "under LANG=C the screen holds non-ASCII"
	else
		LC_ALL=C grep -q "$(printf '\342[\240-\243][\200-\277]')" "$tmp/s" ||
			fail "no Braille characters in the graphs"
	fi
	tm send-keys Escape
	wait_for "PID USER" || fail "Esc did not return to the table"
done
echo "detail graphs: RSS $want, minor faults $minor/s"
