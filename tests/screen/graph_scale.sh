#!/bin/sh
# The graphs are scaled to what they show: a process growing from about 100M to 400M (20
# MiB a second, memtop started when it holds 100M) in the detail screen's Graphs tab, at
# 120x40 and 80x24, under UTF-8 (Braille) and LANG=C (ASCII): its RSS curve rises across
# more than half of its plot's rows, not a flat line at the bottom; the axis's top label
# is a size at or above its RSS and under 2.5 times it; no legend line holds any of a
# plot; the time axes hold only round marks and "now".
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child= socks=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null
	for s in $socks; do tmux -L "$s" kill-server 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
locale -a | grep -qix 'c\.utf-\?8' || skip "no C.UTF-8 locale"
export LC_ALL=C.UTF-8

"$HELPERS/grow_child" 20 20 graph-scale-$$ >"$tmp/child" &
child=$!
wait_ready "$tmp/child" || fail "grow_child never got ready"
rss_kb() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$child/status"; }
i=0
until [ "$(rss_kb)" -ge 100000 ]; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "grow_child did not reach 100M"
	sleep 0.1
done
# memtop -p the child at each size and locale, in the Graphs tab of its detail screen
for case in 120x40:C.UTF-8 80x24:C.UTF-8 120x40:C 80x24:C; do
	size=${case%:*} lang=${case#*:}
	TMUX_SOCK="memtop-test-$$-$size-$lang"
	socks="$socks $TMUX_SOCK"
	tm_start "${size%x*}" "${size#*x}" "env LANG=$lang LC_ALL=$lang '$MEMTOP' -d 0.5 --no-bpf -p $child"
done
for s in $socks; do
	TMUX_SOCK=$s
	wait_for "grow_child" || fail "$s: memtop did not show the child"
	tm send-keys Enter
	wait_for "Process $child (grow_child)" || fail "$s: Enter did not open the detail screen"
	tm send-keys 4
	wait_for "Page faults" || fail "$s: 4 did not show the graphs"
done
i=0
until grep -q stopped "$tmp/child"; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "grow_child never stopped"
	sleep 0.1
done
sleep 1.5 # a refresh or two after the last growth
rss=$(rss_kb)

# plain TEXT: each Braille cell as '#' (the blank one as a space), the axis as '|', so
# that every cell is one character
plain() {
	LC_ALL=C sed 's/\xe2\xa0\x80/ /g; s/\xe2[\xa0-\xa3][\x80-\xbf]/#/g; s/\xe2\x94\x82/|/g' "$1"
}
for s in $socks; do
	TMUX_SOCK=$s
	screen_text >"$tmp/s"
	case $s in *-C) mark='*' ;; *) mark='#' ;; esac
	case $s in *-120x40-*) w=59 ;; *) w=80 ;; esac # the memory graph's width
	plain "$tmp/s" >"$tmp/p"
	cat "$tmp/s"
	# the memory graph: its legend, its plot from the top label down to the row above
	# its time axis
	l_leg=$(grep -n '^Memory . RSS ' "$tmp/p" | head -1 | cut -d: -f1)
	[ -n "$l_leg" ] || fail "$s: no legend of the memory graph"
	sed -n "$((l_leg + 1)),\$p" "$tmp/p" | awk -v w=$w -v mark="$mark" -v rss="$rss" \
		-v s="$s" '
	function kb(t,  n, u) {
		n = t + 0
		u = substr(t, length(t))
		return n * (u == "K" ? 1 : u == "M" ? 1024 : u == "G" ? 1048576 : 1073741824)
	}
	function bad(m) { print "FAIL: " s ": " m; failed = 1; exit 1 }
	!top && /^ *[0-9.]+[KMGT]\|/ { top = $1; sub(/\|.*/, "", top); rows = 0 }
	!top { next }
	/now$/ { done = 1; exit }
	{
		rows++
		plot = substr($0, 7, w - 6)
		if (index(plot, mark) && !($0 ~ /^ +0\|/))
			spans++
	}
	END {
		if (failed)
			exit 1
		if (!done || !top)
			bad("no plot of the memory graph above a time axis")
		if (kb(top) < rss || kb(top) >= 2.5 * rss)
			bad("the axis top " top " is not between RSS " rss "K and 2.5 times it")
		if (spans * 2 <= rows)
			bad("the RSS curve spans " spans " of the plot'"'"'s " rows " rows")
		printf "%s: top %s for RSS %dK, the curve over %d of %d rows\n", s, top, rss,
			spans, rows
	}' || exit 1
	# legends are lines of their own: no line naming a series holds an axis
	if grep -E 'RSS [0-9]|swap [0-9]|minor/s|major/s' "$tmp/p" | grep -F '|'; then
		fail "$s: a legend shares its line with a plot"
	fi
	# time axes: round marks and now only
	axes=$(grep -E 'now$' "$tmp/p")
	[ "$(printf '%s\n' "$axes" | grep -o 'now' | wc -l)" = 2 ] || fail "$s: not two time axes"
	printf '%s\n' "$axes" | grep -Eqv '^ *(-[0-9]+[smh] +)*now( +(-[0-9]+[smh] +)*now)?$' &&
		fail "$s: a time axis holds more than marks and now: $axes"
	for m in $(printf '%s\n' "$axes" | grep -Eo -- '-[0-9]+[smh]'); do
		n=${m#-} n=${n%?}
		case $m in *s) [ $((n % 5)) = 0 ] || fail "$s: the mark $m is not round" ;; esac
	done
	printf '%s\n' "$axes" | grep -Eq -- '-[0-9]+[smh]' || fail "$s: no marks on the time axes"
	if [ "${s##*-}" = C ]; then
		LC_ALL=C grep -n '[^ -~]' "$tmp/s" && fail "$s: under LANG=C the screen holds non-ASCII"
	fi
done
echo "graphs scaled to a process growing from 100M to $((rss / 1024))M"
