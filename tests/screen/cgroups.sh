#!/bin/sh
# memtop-test: alone
# The cgroup screen (C), on three memory cgroups made here: 64 and 128 MiB limits holding
# children that touch 30 and 50 MiB, and 32 MiB holding 30 MiB. Their rows show usage
# within 2 % of the kernel's (memory.usage_in_bytes, read in the same second, give or take
# the screen's rounding), the limits and one process each; the one at 90 % of its limit
# is drawn in the alert role (red background in the default theme), the others not. - folds
# the tree, > sorts by the next column, F6 picks one. Enter on a cgroup opens the process table filtered
# to it (the status line names the cgroup; where memtop has a process CGROUP column, only
# its process is listed) and Esc goes back. memtop started inside a cgroup limited to
# 256 MiB shows a Lim meter under Mem.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg
locale -a | grep -qix 'c\.utf-\?8' && export LC_ALL=C.UTF-8

tag=cgscr$$
cg_make "memtop-$tag-a" $((64 << 20))
a_dir=$cg_dir
cg_child "$a_dir" 30 a
a_pid=$cg_pid
cg_make "memtop-$tag-b" $((128 << 20))
b_dir=$cg_dir
cg_child "$b_dir" 50 b
cg_make "memtop-$tag-full" $((32 << 20))
full_dir=$cg_dir
cg_child "$full_dir" 30 full

tm_start 160 40 "$MEMTOP -d 0.5"
wait_for "Tasks" || fail "memtop did not start"
tm send-keys C
wait_for "Cgroups " || fail "C did not open the cgroup screen"
tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt on the cgroup screen"
tm send-keys -l "$tag"
tm send-keys Enter
wait_for ", 4 shown" || fail "the filter did not leave the root and the three cgroups"
wait_for "filter: $tag" || fail "the bottom line does not name the filter"
wait_for "memtop-$tag-full" || fail "no row for the cgroups made"
next_refresh && next_refresh || fail "the cgroup screen stopped refreshing" # two reads: the rates too

# field NAME TITLE: the cell under TITLE in the row of cgroup NAME (the tree's lines are
# fields of their own before the name)
field() {
	screen_text | awk -v n="$1" -v t="$2" '
		/^CGROUP / { for (i = 2; i <= NF; i++) if ($i == t) k = i - 1; next }
		k { for (j = 1; j <= NF; j++) if ($j == n) { print $(j + k); exit } }'
}
# check_rows: each row against the kernel (the screen is read again where a refresh was
# being drawn); prints what it found, or why it failed
check_rows() {
	for x in "a $a_dir 64M" "b $b_dir 128M" "full $full_dir 32M"; do
		set -- $x
		name=memtop-$tag-$1
		usage=$(field "$name" USAGE) limit=$(field "$name" LIMIT) procs=$(field "$name" PROCS)
		kernel=$(($(cg_usage "$2") / 1024))
		awk "$KIB_AWK"'BEGIN { d = kib(u) - w; if (d < 0) d = -d; exit !(d <= w * 0.02 + 512) }' \
			u="$usage" w="$kernel" </dev/null || {
			echo "$name: USAGE $usage, the kernel says $kernel KiB"
			return 1
		}
		[ "$limit" = "$3" ] && [ "$procs" = 1 ] || {
			echo "$name: LIMIT $limit, PROCS $procs"
			return 1
		}
		echo "$name: USAGE $usage (kernel $kernel KiB), LIMIT $limit, PROCS $procs, %LIM $(field "$name" %LIM)"
	done
}
# check_red: the cgroup at 90 % of its limit is drawn red, the others not
esc=$(printf '\033')
red="$esc\[([0-9]+;)*41(;[0-9]+)*m"
check_red() {
	tm capture-pane -p -e >"$tmp/colors"
	grep "memtop-$tag-full" "$tmp/colors" | grep -Eq "$red" || {
		echo "the cgroup at $(field "memtop-$tag-full" %LIM) % of its limit is not drawn red:"
		grep "memtop-$tag-full" "$tmp/colors" | od -c | head -n 4
		return 1
	}
	for n in a b; do
		if grep "memtop-$tag-$n " "$tmp/colors" | grep -Eq "$red"; then
			echo "memtop-$tag-$n is drawn red"
			return 1
		fi
	done
	echo "the cgroup at $(field "memtop-$tag-full" %LIM) % is drawn in the alert role, the others not"
}
# retry CMD: CMD until it passes, 10 times at most
retry() {
	i=0
	until "$@" >"$tmp/why"; do
		i=$((i + 1))
		[ $i -lt 10 ] || fail "$(cat "$tmp/why"); the screen:
$(screen_text)"
		sleep 0.3
	done
	cat "$tmp/why"
}
retry check_rows
retry check_red

# the root (selected) folded hides the three, + shows them again; > sorts by LIMIT
tm send-keys -
wait_for "(+3)" || fail "- did not fold the root"
wait_gone "memtop-$tag-a" || fail "the folded cgroups are still shown"
tm send-keys +
wait_for "memtop-$tag-a" || fail "+ did not unfold the root"
tm send-keys '>'
wait_for "Sort LIMIT asc" || fail "> did not sort by LIMIT"

# F6: the sort picker, on LIMIT; Up and Enter sort by USAGE, the column before it; F6 and
# Esc change nothing
tm send-keys F6
wait_for "Sort cgroups by" || fail "F6 did not open the cgroup sort picker"
tm send-keys Up Enter
wait_for "Sort USAGE" || fail "the picker did not sort by USAGE: $(screen_text | grep Sort)"
tm send-keys F6
wait_for "Sort cgroups by" || fail "F6 again did not open the picker"
tm send-keys Escape
wait_for "Sort USAGE" || fail "Esc in the picker changed the sort: $(screen_text | grep Sort)"
echo "F6: sorted by USAGE from the picker"

# Enter on cgroup a (alone in the flat list) and Esc back
tm send-keys t '\' C-u
tm send-keys -l "$tag-a"
tm send-keys Enter
wait_for ", 1 shown" || fail "the flat list filtered to $tag-a has not one row"
tm send-keys Enter
wait_for "Cgroup /memtop-$tag-a" || fail "Enter on the cgroup did not filter the process table to it"
screen_text | grep -q "^Tasks " || fail "Enter did not open the process table"
if "$MEMTOP" -b -n 1 -d 0.2 -p 1 --columns +cgroup >/dev/null 2>&1; then
	wait_for ", 1 shown" || fail "the process table filtered to the cgroup does not show one process"
	screen_text | awk -v p="$a_pid" '/^ *PID USER/ { t = 1; next } t && $1 ~ /^[0-9]+$/ && $1 != p { exit 1 }' ||
		fail "the process table shows other processes than $a_pid: $(screen_text)"
	echo "Enter: only the cgroup's process ($a_pid)"
else
	echo "Enter: the status line names the cgroup (this memtop has no process CGROUP column to filter by)"
fi
tm send-keys Escape
wait_for "Cgroups " || fail "Esc did not go back to the cgroup screen"
wait_gone "Cgroup /memtop-" || fail "the cgroup filter stayed after Esc"
wait_for "memtop-$tag-a" || fail "the cgroup screen lost its rows after Esc"
tm send-keys Escape
wait_for "Tasks" || fail "Esc on the cgroup screen did not go back to the process table"
screen_text | grep -q "Cgroup /" && fail "the process table is still filtered by a cgroup"
echo "Enter and Esc: the process table filtered to the cgroup and back"
tm_kill

# memtop inside a cgroup limited to 256 MiB: Lim under Mem
cg_make "memtop-$tag-lim" $((256 << 20))
tm_start 120 30 "sh -c 'echo \$\$ >$cg_dir/cgroup.procs && exec $MEMTOP -d 0.5'"
wait_for "/256M]" || fail "no Lim meter of a 256 MiB limit"
screen_text | sed -n 2p | grep -q "^Lim\[.*/256M\]$" || fail "Lim is not the line under Mem: $(screen_text | sed -n 1,3p)"
screen_text | sed -n 3p | grep -q "^Swp\[" || fail "Swp is not under Lim: $(screen_text | sed -n 1,3p)"
echo "inside a 256 MiB cgroup: $(screen_text | sed -n 2p | tr -s ' ')"
