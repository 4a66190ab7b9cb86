#!/bin/sh
# The /proc/meminfo and /proc/vmstat figures: each JSON figure of a refresh lies within
# what the file read before and after memtop's run says (a level within a tolerance for what
# other processes change meanwhile, a counter between the two reads, summed over its
# key_ZONE lines where it is a sum), a key the kernel lacks is null; the rate beside each
# counter is a number; a recording of that run replays the same figures, and its replay's
# batch lines and OpenMetrics samples agree with its JSON; doc/columns.md lists each figure
# with its metric.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

# kind (K: meminfo KiB, N: meminfo number, C: vmstat counter, S: vmstat sum of key and
# key_SUFFIX, T: a paging total, key_anon + key_file where the kernel has both, else the
# sum of key_kswapd, _direct, _khugepaged, _proactive), JSON key, /proc key, batch line,
# batch label, metric
cat >"$tmp/table" <<'TABLE'
K|slab_kb|Slab|Mem|Slab|memtop_memory_slab_bytes
K|page_tables_kb|PageTables|Mem|PageTables|memtop_memory_page_tables_bytes
K|sreclaimable_kb|SReclaimable|Kernel|SReclaimable|memtop_memory_slab_reclaimable_bytes
K|sunreclaim_kb|SUnreclaim|Kernel|SUnreclaim|memtop_memory_slab_unreclaimable_bytes
K|kernel_stack_kb|KernelStack|Kernel|KernelStack|memtop_memory_kernel_stack_bytes
K|vmalloc_used_kb|VmallocUsed|Kernel|VmallocUsed|memtop_memory_vmalloc_used_bytes
K|percpu_kb|Percpu|Kernel|Percpu|memtop_memory_percpu_bytes
K|active_anon_kb|Active(anon)|Pages|Active anon|memtop_memory_active_anon_bytes
K|inactive_anon_kb|Inactive(anon)|Pages|Inactive anon|memtop_memory_inactive_anon_bytes
K|active_file_kb|Active(file)|Pages|Active file|memtop_memory_active_file_bytes
K|inactive_file_kb|Inactive(file)|Pages|Inactive file|memtop_memory_inactive_file_bytes
K|unevictable_kb|Unevictable|Pages|Unevictable|memtop_memory_unevictable_bytes
K|mlocked_kb|Mlocked|Pages|Mlocked|memtop_memory_mlocked_bytes
K|dirty_kb|Dirty|Pages|Dirty|memtop_memory_dirty_bytes
K|writeback_kb|Writeback|Pages|Writeback|memtop_memory_writeback_bytes
K|swap_cached_kb|SwapCached|Swap|Cached|memtop_swap_cached_bytes
K|zswap_kb|Zswap|Swap|Zswap|memtop_swap_zswap_bytes
K|zswapped_kb|Zswapped|Swap|Zswapped|memtop_swap_zswapped_bytes
K|committed_as_kb|Committed_AS|Swap|Committed|memtop_memory_committed_bytes
K|commit_limit_kb|CommitLimit|Swap|CommitLimit|memtop_memory_commit_limit_bytes
K|anon_huge_pages_kb|AnonHugePages|Huge|Anon|memtop_memory_anon_huge_pages_bytes
K|shmem_huge_pages_kb|ShmemHugePages|Huge|Shmem|memtop_memory_shmem_huge_pages_bytes
K|file_huge_pages_kb|FileHugePages|Huge|File|memtop_memory_file_huge_pages_bytes
N|hugepages_total|HugePages_Total|Huge|Pages|memtop_memory_hugepages
N|hugepages_free|HugePages_Free|Huge|Free|memtop_memory_hugepages_free
N|hugepages_rsvd|HugePages_Rsvd|Huge|Rsvd|memtop_memory_hugepages_reserved
N|hugepages_surp|HugePages_Surp|Huge|Surp|memtop_memory_hugepages_surplus
K|hugepagesize_kb|Hugepagesize|Huge|Size|memtop_memory_hugepage_size_bytes
K|hugetlb_kb|Hugetlb|Huge|Hugetlb|memtop_memory_hugetlb_bytes
S|allocstall|allocstall|VM|Stalls/s|memtop_vm_allocstall_total
C|pgpgin|pgpgin|Paging|In KiB/s|memtop_vm_pgpgin_total
C|pgpgout|pgpgout|Paging|Out KiB/s|memtop_vm_pgpgout_total
T|pgscan|pgscan|Paging|Scan/s|memtop_vm_pgscan_total
C|pgscan_kswapd|pgscan_kswapd|Paging|Scan kswapd/s|memtop_vm_pgscan_kswapd_total
C|pgscan_direct|pgscan_direct|Paging|Scan direct/s|memtop_vm_pgscan_direct_total
C|pgscan_khugepaged|pgscan_khugepaged|Paging|Scan khugepaged/s|memtop_vm_pgscan_khugepaged_total
C|pgscan_proactive|pgscan_proactive|Paging|Scan proactive/s|memtop_vm_pgscan_proactive_total
T|pgsteal|pgsteal|Paging|Steal/s|memtop_vm_pgsteal_total
C|pgsteal_kswapd|pgsteal_kswapd|Paging|Steal kswapd/s|memtop_vm_pgsteal_kswapd_total
C|pgsteal_direct|pgsteal_direct|Paging|Steal direct/s|memtop_vm_pgsteal_direct_total
C|pgsteal_khugepaged|pgsteal_khugepaged|Paging|Steal khugepaged/s|memtop_vm_pgsteal_khugepaged_total
C|pgsteal_proactive|pgsteal_proactive|Paging|Steal proactive/s|memtop_vm_pgsteal_proactive_total
C|workingset_refault_anon|workingset_refault_anon|Paging|Refault anon/s|memtop_vm_workingset_refault_anon_total
C|workingset_refault_file|workingset_refault_file|Paging|Refault file/s|memtop_vm_workingset_refault_file_total
S|workingset_activate|workingset_activate|Paging|Activate/s|memtop_vm_workingset_activate_total
C|compact_stall|compact_stall|Paging|Compact stall/s|memtop_vm_compact_stall_total
C|compact_fail|compact_fail|Paging|fail/s|memtop_vm_compact_fail_total
C|compact_success|compact_success|Paging|success/s|memtop_vm_compact_success_total
C|thp_fault_alloc|thp_fault_alloc|Paging|THP alloc/s|memtop_vm_thp_fault_alloc_total
C|thp_fault_fallback|thp_fault_fallback|Paging|THP fallback/s|memtop_vm_thp_fault_fallback_total
C|numa_hit|numa_hit|NUMA|Hit/s|memtop_vm_numa_hit_total
C|numa_miss|numa_miss|NUMA|Miss/s|memtop_vm_numa_miss_total
C|numa_foreign|numa_foreign|NUMA|Foreign/s|memtop_vm_numa_foreign_total
C|numa_pages_migrated|numa_pages_migrated|NUMA|Migrated/s|memtop_vm_numa_pages_migrated_total
C|oom_kill|oom_kill|VM|OOM kills/s|memtop_vm_oom_kill_total
TABLE

# a key's value in a saved file: empty where the file lacks it; a sum adds key_SUFFIX
proc_value() { # file kind key
	[ "$2" != T ] || {
		awk -v k="$3" '$1 == k "_anon" || $1 == k "_file" { s += $2; n++ }
			$1 == k "_kswapd" || $1 == k "_direct" { r += $2; m++ }
			$1 == k "_khugepaged" || $1 == k "_proactive" { r += $2 }
			END { if (n == 2) print s; else if (m == 2) print r }' "$1"
		return
	}
	awk -v k="$3" -v sum="$2" '
		{ key = $1; sub(/:$/, "", key) }
		key == k || (sum == "S" && index(key, k "_") == 1 && substr(key, length(k) + 2) !~ /_/) {
			v += $2; found = 1 }
		END { if (found) print v }' "$1"
}

# kv JSON_FILE: its object's keys and values, a "key<TAB>value" line each, into FILE.kv;
# val FILE KEY: KEY's value there as jq -r prints it, "missing" where it has none (one
# jq for the figures, an awk for each)
kv() { jq -r 'to_entries[] | "\(.key)\t\(.value)"' "$1" >"$1.kv"; }
val() { awk -F '\t' -v k="$2" '$1 == k { print $2; f = 1; exit } END { if (!f) print "missing" }' "$1.kv"; }

# measure: memtop's run between two reads of the files, each figure checked; a level out of
# its tolerance (another test's processes came and went meanwhile, which the two reads
# may not see) is noted in $moved, and measure is false: taken again, three times at most
measure() {
	moved=""
	cat /proc/meminfo >"$tmp/mem0"
	cat /proc/vmstat >"$tmp/vm0"
	"$MEMTOP" --json -n 2 -d 0.5 --record "$tmp/rec" >"$tmp/json" || fail "memtop --json --record exited $?"
	cat /proc/meminfo >"$tmp/mem1"
	cat /proc/vmstat >"$tmp/vm1"
	tail -n 1 "$tmp/json" | jq -c .system >"$tmp/sys" || fail "the JSON does not parse"
	kv "$tmp/sys"

	tol=65536 # KiB other processes may change a level by between the reads
	self_data=$(tail -n 1 "$tmp/json" | jq --arg r "$tmp/rec" '[.processes[] | select(.cmd | contains($r)) | .data_kb // 0] | add // 0')
	n=0 absent=""
	while IFS='|' read -r kind key pkey line label metric; do
		case $kind in K | N) f=mem ;; *) f=vm ;; esac
		a=$(proc_value "$tmp/${f}0" "$kind" "$pkey")
		b=$(proc_value "$tmp/${f}1" "$kind" "$pkey")
		got=$(val "$tmp/sys" "$key")
		[ "$got" != missing ] || fail "JSON system has no key $key"
		if [ -z "$a" ] && [ -z "$b" ]; then
			[ "$got" = null ] || fail "$key is $got, but the kernel has no $pkey: it should be null"
			absent="$absent $key"
			continue
		fi
		[ -n "$a" ] && [ -n "$b" ] || fail "$pkey came or went between the reads"
		lo=$((a < b ? a : b)) hi=$((a > b ? a : b))
		case $kind in
		K)
			lo=$((lo - tol)) hi=$((hi + tol))
			# memtop's own commitment counts while it runs (large when sanitized)
			[ "$key" != committed_as_kb ] || hi=$((hi + self_data))
			;;
		C | S | T)
			rate=$(val "$tmp/sys" "${key}_per_s")
			case $rate in [0-9]*) ;; *) fail "${key}_per_s is '$rate', not a number" ;; esac
			;;
		esac
		if [ "$got" -lt "$lo" ] || [ "$got" -gt "$hi" ]; then
			[ $kind = K ] || fail "$key is $got, /proc ${pkey} read $a before and $b after"
			moved="$moved; $key is $got, /proc ${pkey} read $a before and $b after"
		fi
		n=$((n + 1))
	done <"$tmp/table"
	[ -z "$moved" ] || { echo "the machine moved${moved}"; return 1; }
}
tries 3 measure || fail "in $tries runs${moved#;}"
[ "$n" -ge 30 ] || fail "only $n figures checked"

# the recording replays the same figures; its replay's batch text and OpenMetrics agree
"$MEMTOP" --replay "$tmp/rec" --json | tail -n 1 | jq -c .system >"$tmp/rsys" || fail "memtop --replay --json failed"
kv "$tmp/rsys"
"$MEMTOP" --replay "$tmp/rec" -b >"$tmp/batch" || fail "memtop --replay -b exited $?"
"$MEMTOP" --replay "$tmp/rec" --openmetrics >"$tmp/om" || fail "memtop --replay --openmetrics exited $?"
last=$(grep -n '^memtop ' "$tmp/batch" | tail -n 1 | cut -d: -f1)
tail -n +"$last" "$tmp/batch" >"$tmp/last"
doc_page="$(dirname "$0")/../../doc/columns.md" # the figures' table, with each metric
while IFS='|' read -r kind key pkey line label metric; do
	got=$(val "$tmp/sys" "$key")
	again=$(val "$tmp/rsys" "$key")
	[ "$got" = "$again" ] || fail "$key is $got live, $again replayed"
	sample=$(sed -n "s/^$metric \([0-9.e+]*\)\$/\1/p" "$tmp/om")
	text=$(grep "^$line: " "$tmp/last" | head -n 1)
	if [ "$got" = null ]; then
		[ -z "$sample" ] || fail "$metric is $sample, but $key is null"
		[ -z "$label" ] || case "$text" in *" $label "*) fail "batch $line: shows $label, but $key is null: $text" ;; esac
	else
		case $kind in K) want=$((got * 1024)) ;; *) want=$got ;; esac
		[ "$(awk -v s="$sample" 'BEGIN { printf "%.0f", s }')" = "$want" ] ||
			fail "$metric is '$sample', JSON $key $got gives $want"
		if [ -n "$label" ]; then
			shown=$(printf '%s\n' "$text" | sed -n "s|.*[:,] $label \([^,]*\).*|\1|p")
			case $kind in
			K) [ "$shown" = "$(fmt_kb "$got")" ] || fail "batch $line: $label '$shown', JSON $key $got: $text" ;;
			N) [ "$shown" = "$got" ] || fail "batch $line: $label '$shown', JSON $key $got: $text" ;;
			*)
				rate=$(val "$tmp/rsys" "${key}_per_s")
				# as rounded: to 0.1 below 10, to 1 below 100000, then to 0.1M
				awk -v s="$shown" -v r="$rate" 'BEGIN {
					v = s + 0; if (s ~ /M$/) v *= 1e6
					d = v - r; if (d < 0) d = -d
					exit !(s != "" && d <= (s ~ /M$/ ? 50000 : r < 9.95 ? 0.05 : 0.5) + 1e-6) }' ||
					fail "batch $line: $label '$shown', JSON ${key}_per_s $rate: $text"
				;;
			esac
		fi
	fi
	grep -q "^| \`$key\` |.*| \`$metric\` |\$" "$doc_page" || fail "doc/columns.md lacks $key and its metric $metric"
done <"$tmp/table"
echo "$n figures within /proc/meminfo and /proc/vmstat read around memtop's, null:${absent:- none}; replayed, batch and OpenMetrics agree"
