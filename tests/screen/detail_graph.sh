#!/bin/sh
# The detail screen's fourth section (4, or g) graphs the process over time: its RSS and
# swap on one axis, its top a round size at or above its RSS as /proc says it and under
# twice that (its headroom and rounding), and its minor and major faults a
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
rss_kb() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$child/status"; }
rss() { fmt_kb "$(rss_kb)"; }
# top_ok KIB: the memory graph's axis top (its first label) is at least KIB, under twice it
top_ok() {
	sed -n 's/^ *\([0-9.]*[KMGT]\)[│|].*/\1/p' "$tmp/s" | head -1 | awk -v kb="$1" '{
		n = $1 + 0
		u = substr($1, length($1))
		n *= u == "K" ? 1 : u == "M" ? 1024 : u == "G" ? 1048576 : 1073741824
		top = 1
	} END { exit !(top && n >= kb && n < 2 * kb) }'
}

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
		want=$(rss) want_kb=$(rss_kb)
		minor=$(sed -n 's/.*Page faults . minor\/s \([0-9.]*\) .*/\1/p' "$tmp/s")
		if grep -q "^Memory . RSS $want . swap 0K" "$tmp/s" &&
			top_ok "$want_kb" &&
			awk -v m="${minor:-0}" 'BEGIN { exit !(m >= 1000 && m <= 4000) }'; then
			ok=1
			break
		fi
		i=$((i + 1))
	done
	cat "$tmp/s"
	[ $ok = 1 ] || fail "$lang: no RSS graph of $want under a top above it, or minor/s ${minor:-none} not near 2000"
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
