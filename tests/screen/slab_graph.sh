#!/bin/sh
# The slab screen's graph: with the table filtered to dentry, Enter puts a graph of the
# selected cache's size over time above the table ("Slab cache dentry", its "size" legend,
# a size on its axis, Braille where the line is drawn), the table still below it; ) says
# the window; Enter again takes it away. A cache not among the largest the history keeps
# says so in the graph's title.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (/proc/slabinfo is root's)"
locale -a | grep -qix 'c\.utf-\?8' || skip "no C.UTF-8 locale"
export LC_ALL=C.UTF-8 # tmux itself and its captures speak UTF-8
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

tm_start 120 40 "env LANG=C.UTF-8 '$MEMTOP' --slab -d 0.5 --no-bpf"
wait_for "GROW10 RECLAIM" || fail "--slab opened no slab screen with GROW10: $(screen_text)"
wait_for "dentry" || fail "no dentry row: $(screen_text)"
tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt"
tm send-keys -l "dentry"
tm send-keys Enter
sleep 0.5
tm send-keys Enter
wait_for "Slab cache dentry" || fail "Enter showed no graph of dentry: $(screen_text)"
sleep 1.5 # a few refreshes into the graph
screen_text >"$tmp/pane"
cat "$tmp/pane" >&2
l_graph=$(grep -n 'Slab cache dentry' "$tmp/pane" | head -1 | cut -d: -f1)
l_titles=$(grep -n '^NAME  *ACTIVE' "$tmp/pane" | cut -d: -f1)
[ -n "$l_titles" ] && [ "$l_graph" -lt "$l_titles" ] || fail "the graph is not above the table"
sed -n "${l_graph},${l_titles}p" "$tmp/pane" >"$tmp/graph"
grep -qF size "$tmp/graph" || fail "no 'size' in the graph's legend"
grep -Eq '^ *[0-9.]+[KMGT]│' "$tmp/graph" || fail "no size on the graph's axis"
LC_ALL=C grep -q "$(printf '\342[\240-\243][\200-\277]')" "$tmp/graph" ||
	fail "no Braille line in the graph"
grep -q 'now$' "$tmp/graph" || fail "no time axis"
sed -n "$((l_titles + 1))p" "$tmp/pane" | grep -q '^dentry ' || fail "no dentry row under the graph"
tm send-keys ')'
wait_for "graph window: 1 min" || fail ") did not lengthen the window"
tm send-keys Enter
wait_gone "Slab cache dentry" || fail "Enter again did not take the graph away"

# a small cache: not kept
small=$(awk 'NR > 2 { name[NR] = $1; one[NR] = $15 == 1 }
	END { for (i in name) { if (!one[i]) continue; alone = 1
		for (j in name) if (j != i && index(name[j], name[i])) alone = 0
		if (alone) { print name[i]; exit } } }' /proc/slabinfo)
[ -n "$small" ] || skip "no cache of one slab"
tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt"
tm send-keys C-u
tm send-keys -l "$small"
tm send-keys Enter
sleep 0.5
tm send-keys Enter
wait_for "Slab cache $small: not kept" || fail "no 'not kept' for $small: $(screen_text)"
echo "slab graph: dentry's size above the table; $small not kept"
