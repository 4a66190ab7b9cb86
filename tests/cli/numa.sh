#!/bin/sh
# Huge pages and NUMA. Each NUMA node's figures (JSON nodes[], the batch "Node N:" lines,
# OpenMetrics memtop_node_memory_*_bytes) against its /sys/devices/system/node/nodeN/meminfo
# read around memtop's read and against `numastat -m` (MB: within 1 MB, memtop's own RSS
# and what changed between the reads); a process that madvises MADV_HUGEPAGE on 64 MiB: its AHP column
# (anon_huge_kb) equals AnonHugePages of its smaps_rollup (where THP is enabled), HUGETLB
# (hugetlb_kb) its Shared_Hugetlb + Private_Hugetlb; its memory per node in the detail's
# JSON (--stacks PID --json, numa[]) equals `numastat -p PID`.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"
command -v numastat >/dev/null || skip "needs numastat (apt-get install numactl)"
sys=/sys/devices/system/node
[ -r $sys/node0/meminfo ] || [ -n "$(ls -d $sys/node[0-9]* 2>/dev/null)" ] ||
	skip "no $sys/nodeN: a kernel without NUMA"

# node_kb NODE KEY: the node's KEY in KiB, from its meminfo
node_kb() { awk -v k="$2:" '$3 == k { print $4 }' "$sys/node$1/meminfo"; }
# numastat_m KEY NODE_INDEX: numastat -m's MB for KEY in the node's column
numastat_m() { awk -v k="$1" -v c="$2" '$1 == k { print $(c + 2) }' "$3"; }
keys="MemTotal MemFree FilePages AnonPages Slab"
json_key() {
	case $1 in
	MemTotal) echo mem_total_kb ;; MemFree) echo mem_free_kb ;;
	FilePages) echo file_pages_kb ;; AnonPages) echo anon_pages_kb ;; Slab) echo slab_kb ;;
	esac
}
nodes=$(ls -d $sys/node[0-9]* | sed 's/.*node//' | sort -n | head -8)

# measured: the node figures read around memtop's read; on a busy machine another
# process's memory may come and go between the reads, so a measure that does not bracket
# memtop's figure is taken again (5 times at most)
measured() {
	: >"$tmp/ok"
	for n in $nodes; do for k in $keys; do echo "$n $k $(node_kb "$n" "$k")"; done; done >"$tmp/before"
	numastat -m >"$tmp/nm_before" 2>/dev/null
	"$MEMTOP" --json -n 1 >"$tmp/json" || fail "memtop --json exited $?"
	numastat -m >"$tmp/nm_after" 2>/dev/null
	for n in $nodes; do for k in $keys; do echo "$n $k $(node_kb "$n" "$k")"; done; done >"$tmp/after"

	# memtop's own memory is on a node while it reads and gone after: the reads around it
	# differ from its by up to its RSS, and 1 MB
	slack=$(($(jq '.self.rss_kb' "$tmp/json") + 1024))
	[ "$(jq -r '[.nodes[].node] | map(tostring) | join(" ")' "$tmp/json")" = "$(echo $nodes)" ] ||
		fail "JSON nodes $(jq -c '[.nodes[].node]' "$tmp/json"), sysfs has $(echo $nodes)"
	i=0
	for n in $nodes; do
		for k in $keys; do
			got=$(jq --argjson n "$n" --arg k "$(json_key $k)" '.nodes[] | select(.node == $n) | .[$k]' "$tmp/json")
			a=$(awk -v n="$n" -v k="$k" '$1 == n && $2 == k { print $3 }' "$tmp/before")
			b=$(awk -v n="$n" -v k="$k" '$1 == n && $2 == k { print $3 }' "$tmp/after")
			# /sys: between the reads around memtop's
			awk -v g="$got" -v a="$a" -v b="$b" -v s="$slack" 'BEGIN {
				lo = a < b ? a : b; hi = a < b ? b : a
				exit !(g >= lo - s && g <= hi + s) }' ||
				{ echo "node $n $k: memtop $got kB, nodeN/meminfo $a then $b kB" >"$tmp/why"; return 1; }
			# numastat -m, in MB: within 1 MB and what changed
			ma=$(numastat_m "$k" $i "$tmp/nm_before")
			mb=$(numastat_m "$k" $i "$tmp/nm_after")
			awk -v g="$got" -v a="$ma" -v b="$mb" -v s="$slack" 'BEGIN {
				lo = a < b ? a : b; hi = a < b ? b : a; m = g / 1024
				exit !(m >= lo - s / 1024 && m <= hi + s / 1024) }' ||
				{ echo "node $n $k: memtop $got kB, numastat -m $ma then $mb MB" >"$tmp/why"; return 1; }
			echo "node $n $k: $got kB; meminfo $a..$b kB; numastat -m $ma..$mb MB" >>"$tmp/ok"
		done
		i=$((i + 1))
	done
}
tries=1
until measured; do
	tries=$((tries + 1))
	[ $tries -le 5 ] || fail "5 times: $(cat "$tmp/why")"
done
cat "$tmp/ok"
[ $tries = 1 ] || echo "(measured $tries times: $(cat "$tmp/why"))"

# batch text: a "Node N:" line per node; OpenMetrics: a sample per node of each figure
"$MEMTOP" -b -n 1 >"$tmp/batch" || fail "memtop -b exited $?"
"$MEMTOP" --openmetrics >"$tmp/om" || fail "memtop --openmetrics exited $?"
for n in $nodes; do
	total=$(node_kb "$n" MemTotal)
	grep -q "^Node $n: Total $(fmt_kb "$total"), Free [^,]*, File [^,]*, Anon [^,]*, Slab " "$tmp/batch" ||
		fail "batch: no 'Node $n: Total $(fmt_kb "$total")' line: $(grep '^Node' "$tmp/batch")"
	grep -qx "memtop_node_memory_total_bytes{node=\"$n\"} $((total * 1024))" "$tmp/om" ||
		fail "OpenMetrics: $(grep "memtop_node_memory_total_bytes{node=\"$n\"}" "$tmp/om"), MemTotal $total kB"
	for m in free file_pages anon_pages slab; do
		grep -q "^memtop_node_memory_${m}_bytes{node=\"$n\"} [0-9]" "$tmp/om" ||
			fail "OpenMetrics: no memtop_node_memory_${m}_bytes for node $n"
	done
done
[ "$(grep -c '^Node ' "$tmp/batch")" = "$(echo $nodes | wc -w)" ] || fail "batch: $(grep '^Node' "$tmp/batch")"

# a process with 64 MiB madvised MADV_HUGEPAGE
: >"$tmp/child"
"$HELPERS/thp_child" 64 numa-$$ >"$tmp/child" &
child=$!
wait_ready "$tmp/child" || fail "thp_child never got ready"
rollup() { awk -v k="$1:" '$1 == k { s += $2 } END { print s + 0 }' "/proc/$child/smaps_rollup"; }
"$MEMTOP" --json -n 1 --columns +ahp,hugetlb -p "$child" >"$tmp/pj" || fail "memtop --json -p exited $?"
ahp=$(jq '.processes[0].anon_huge_kb' "$tmp/pj")
hugetlb=$(jq '.processes[0].hugetlb_kb' "$tmp/pj")
want=$(rollup AnonHugePages)
tlb=$(($(rollup Shared_Hugetlb) + $(rollup Private_Hugetlb)))
[ "$hugetlb" = "$tlb" ] || fail "hugetlb_kb $hugetlb, smaps_rollup Shared_Hugetlb + Private_Hugetlb $tlb"
thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
case $thp in
*"[never]"*) echo "AHP not checked against a huge page: THP is off here ($thp)" ;;
"") echo "AHP not checked against a huge page: no /sys/kernel/mm/transparent_hugepage" ;;
*)
	[ "$ahp" = "$want" ] || fail "anon_huge_kb $ahp, smaps_rollup AnonHugePages $want (THP $thp)"
	[ "$want" -gt 0 ] || echo "note: the kernel gave no huge page to the 64 MiB (THP $thp)"
	"$MEMTOP" -b -n 1 --columns pid,ahp,hugetlb,cmd -p "$child" >"$tmp/pb" || fail "memtop -b -p exited $?"
	row=$(awk -v p="$child" '$1 == p { print $2 }' "$tmp/pb")
	[ "$row" = "$(fmt_kb "$want")" ] || fail "batch AHP '$row', AnonHugePages $want kB"
	echo "AHP: anon_huge_kb $ahp, batch $row, smaps_rollup AnonHugePages $want (THP $thp)"
	;;
esac
"$MEMTOP" --json -n 1 -p "$child" | jq -e '.processes[0] | has("anon_huge_kb") | not' >/dev/null ||
	fail "anon_huge_kb printed without --columns +ahp"

# its memory per node: the detail's JSON against numastat -p
"$MEMTOP" --stacks "$child:1" --json >"$tmp/detail" 2>"$tmp/err" ||
	fail "memtop --stacks exited $?: $(cat "$tmp/err")"
numastat -p "$child" >"$tmp/np" || fail "numastat -p $child exited $?"
cat "$tmp/np"
header=$(grep -m1 'Node [0-9]' "$tmp/np")
set -- $(echo "$header" | grep -o 'Node [0-9]*' | sed 's/Node //')
col=2
for node in "$@"; do
	for kind in Huge Heap Stack Private Total; do
		mb=$(awk -v k="$kind" -v c=$col '$1 == k { print $c }' "$tmp/np")
		key=$(echo "$kind" | tr 'A-Z' 'a-z')_kb
		kb=$(jq --argjson n "$node" --arg k "$key" '[.numa[] | select(.node == $n) | .[$k]] | add // 0' "$tmp/detail")
		awk -v kb="$kb" -v mb="$mb" 'BEGIN { d = kb / 1024 - mb; exit !(d < 0.006 && d > -0.006) }' ||
			fail "node $node $kind: detail $kb kB, numastat -p $mb MB"
		echo "node $node $kind: detail $kb kB, numastat -p $mb MB"
	done
	col=$((col + 1))
done
