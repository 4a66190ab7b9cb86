#!/bin/sh
# A child in a 64 MiB memory cgroup touches 150 MiB twice with a swapfile on: memtop
# attributes the swap-ins to the child, its system total of swap-ins matches
# /proc/vmstat's pswpin exactly, and it sees memcg reclaim and the child's reclaim stalls.
# memtop runs from before swapon. It counts swap-ins from swap read bios (bpf.swapin_mode
# "bio"; nothing runs per fault) or, where a swap-in may come without a bio, with its
# per-fault program, which stays detached while swap is empty, is attached by the first
# swap-out, before any page is read back, and is detached again once swap is empty
# ("memcg" while attached, "idle" otherwise). Either way the counts are exact. (Proactive
# reclaim, such as a DAMON pageout scheme, may put other processes' cold pages in swap
# at any time: the test checks the rule on memtop's own samples, not on a schedule.)
. "$(dirname "$0")/lib.inc"
need_bpf swapin

swap_child_memcg memtop-swap-$$

v0=$(vmstat pswpin)
mt_start -n 1000 -d 0.5 # stopped by the test: as long as the swapping takes
mt_wait_lines 1
swapfile_on 512
mt_wait_lines $(($(mt_lines) + 2))
in_memcg "$HOG" 150 2 2
wait "$KID" || fail "the child failed: exit $?"
mt_wait_lines $(($(mt_lines) + 2))
jq -s -e 'map(.bpf.swapin_mode) | any(. == "bio" or . == "memcg")' "$OUT" >/dev/null ||
	fail "no swap-in counter was attached: $(jq -s -c 'map(.bpf.swapin_mode)' "$OUT")"
mode=$(mt_last | jq -r .bpf.swapin_mode)
# the child's pages left swap with it: wait (5 s) for a sample that shows swap empty
i=0
until mt_last | jq -e '.system.swap_free_kb == .system.swap_total_kb' >/dev/null; do
	[ $i -lt 50 ] || break # someone else's pages stay in swap: the rule below still holds
	sleep 0.1
	i=$((i + 1))
done
mt_wait_lines $(($(mt_lines) + 2))
mt_stop
# the rule, in every refresh after one in which swap was already empty (a writeout
# in between may attach it for one refresh): the per-fault program is detached
empty='.system.swap_free_kb == .system.swap_total_kb'
jq -s -e "[range(1; length) as \$i | select((.[\$i - 1] | $empty) and
	(.[\$i] | $empty)) | .[\$i].bpf.swapin_mode] | all(. != \"memcg\")" "$OUT" >/dev/null ||
	fail "the per-fault swap-in program was attached with swap empty:" \
		"$(jq -c '[.bpf.swapin_mode, .system.swap_total_kb - .system.swap_free_kb]' "$OUT" | tr '\n' ' ')"
checked=$(jq -s "[range(1; length) as \$i | select((.[\$i - 1] | $empty) and
	(.[\$i] | $empty) and .[\$i].system.swap_total_kb > 0)] | length" "$OUT")
v1=$(vmstat pswpin)
vm=$((v1 - v0))
[ "$vm" -gt 1000 ] || fail "the child swapped in only $vm pages (vmstat); no test"

# the same window from memtop's own samples: vmstat's counter and the BPF counter
jq -s -e '(.[-1].system.pswpin - .[0].system.pswpin) ==
	(.[-1].bpf.swapins - .[0].bpf.swapins)' "$OUT" >/dev/null ||
	fail "BPF counted $(jq -s '.[-1].bpf.swapins - .[0].bpf.swapins' "$OUT") swap-ins," \
		"vmstat $(jq -s '.[-1].system.pswpin - .[0].system.pswpin' "$OUT")"
bpf=$(tail -n 1 "$OUT" | jq .bpf.swapins)
[ "$bpf" = "$vm" ] || fail "BPF counted $bpf swap-ins since start, /proc/vmstat $vm"

# rates times intervals add up to the totals (rounding aside); the child has all of them
# but those memtop attributes to other processes (a concurrent swapper)
sys=$(jq -s '[.[1:][] | .system.pswpin_per_s * .interval_s] | add' "$OUT")
kid=$(jq -s --argjson p "$KID" '[.[1:][] | .interval_s as $i |
	.processes[] | select(.pid == $p) | .swapin_per_s * $i] | add // 0' "$OUT")
others=$(jq -s --argjson p "$KID" '[.[1:][] | .interval_s as $i |
	.processes[] | select(.pid != $p) | (.swapin_per_s // 0) * $i] | add // 0' "$OUT")
awk -v a="$sys" -v b="$vm" 'BEGIN { exit !(a > b * 0.99 && a < b * 1.01) }' ||
	fail "sum of pswpin_per_s * interval_s: $sys, vmstat $vm"
awk -v a="$kid" -v b="$vm" -v o="$others" 'BEGIN { exit !(a > 0 && a > (b - o) * 0.99 &&
	a < (b - o) * 1.01) }' ||
	fail "swap-ins attributed to the child: $kid of $vm, to other processes: $others"

# memcg reclaim: the interval histograms count it and their buckets add up
mc=$(jq -s '[.[1:][] | .reclaim.memcg.count] | add' "$OUT")
[ "$mc" -gt 0 ] || fail "no memcg reclaim counted"
jq -e '[.reclaim[] | objects | (.count == ([.buckets[].count] | add // 0))] | all' "$OUT" |
	grep -q false && fail "histogram buckets do not add up to count"
stall=$(jq -s --argjson p "$KID" '[.[] | .processes[] | select(.pid == $p) |
	.reclaim_stall_us_per_s] | max // 0' "$OUT")
awk -v s="$stall" 'BEGIN { exit !(s > 0) }' || fail "the child has no reclaim stall time"
echo "swap-ins: vmstat $vm, BPF $bpf, child $kid, others $others; memcg reclaims $mc;" \
	"child stall max ${stall} us/s; counted by $mode; per-fault program off in $checked" \
	"refreshes with swap on and empty"
