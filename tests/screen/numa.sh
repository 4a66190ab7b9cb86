#!/bin/sh
# NUMA on screen: n shows each node's memory, its total as the node's meminfo says; the
# detail screen's fifth section (5) shows a process's memory per node as `numastat -p PID`
# does, the same MB in each row and column.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v numastat >/dev/null || skip "needs numastat (apt-get install numactl)"
sys=/sys/devices/system/node
[ -n "$(ls -d $sys/node[0-9]* 2>/dev/null)" ] || skip "no $sys/nodeN: a kernel without NUMA"

: >"$tmp/child"
"$HELPERS/thp_child" 16 numa-screen-$$ >"$tmp/child" &
child=$!
wait_ready "$tmp/child" || fail "thp_child never got ready"

tm_start 120 40 "'$MEMTOP' -d 0.5 --no-bpf -p $child"
wait_for "thp_child" || fail "memtop did not show the child"
tm send-keys n
wait_for "NUMA nodes" || fail "n did not open the NUMA nodes screen"
for d in $sys/node[0-9]*; do
	n=${d##*node}
	total=$(fmt_kb "$(awk '$3 == "MemTotal:" { print $4 }' "$d/meminfo")")
	wait_for "$(printf '%-8s %9s' "$n" "$total")" ||
		fail "no row for node $n with its MemTotal $total"
done
screen_text | sed -n 1,6p
tm send-keys Escape
wait_for "PID USER" || fail "Esc did not return to the table"
tm send-keys Enter
wait_for "Process $child (thp_child)" || fail "Enter did not open the detail screen"
tm send-keys 5
wait_for "Memory per NUMA node" || fail "5 did not show the NUMA section"
numastat -p "$child" >"$tmp/np" || fail "numastat -p exited $?"
screen_text >"$tmp/s"
cat "$tmp/s" "$tmp/np"
for kind in Huge Heap Stack Private Total; do
	want=$(awk -v k="$kind" '$1 == k { $1 = ""; print }' "$tmp/np" | tr -s ' ' | sed 's/^ //')
	got=$(awk -v k="$kind" '$1 == k { $1 = ""; print }' "$tmp/s" | tr -s ' ' | sed 's/^ //')
	[ "$got" = "$want" ] || fail "$kind: the screen shows '$got', numastat -p '$want'"
done
grep -q ' 5 NUMA' "$tmp/s" || fail "no NUMA tab"
