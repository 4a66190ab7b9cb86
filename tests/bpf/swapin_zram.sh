#!/bin/sh
# zram reads swapped-out pages synchronously, in bios that end in submit_bio_wait, not in
# end_swap_bio_read. memtop counts those too, for swap partitions, so a zram swap costs
# nothing per page fault either. A swapfile puts memtop in bio mode; a swapon of zram (at
# a higher priority, so the child's pages go there) is seen at once, and bio mode counts
# the child's swap-ins from zram exactly (BPF = /proc/vmstat pswpin), attributed to the
# child; the per-fault program is never attached.
. "$(dirname "$0")/lib.inc"
need_bpf
swap_child_memcg memtop-zram-$$

v0=$(vmstat pswpin)
mt_start -n 100 -d 0.5
mt_wait_lines 1
swapfile_on 128
mt_wait_lines $(($(mt_lines) + 2))
[ "$(mt_last | jq -r .bpf.swapin_mode)" = bio ] ||
	fail "with a swapfile, swap-ins are not counted from bios: $(mt_last | jq -c .bpf)"

zram_new
echo $((256 << 20)) >"/sys/block/$ZRAM/disksize" || fail "sizing $ZRAM"
mkswap "/dev/$ZRAM" >/dev/null || fail "mkswap /dev/$ZRAM"
swapon -p 32767 "/dev/$ZRAM" || fail "swapon /dev/$ZRAM"
reads0=$(awk '{ print $1 }' "/sys/block/$ZRAM/stat")

# no refresh in between: the child swaps to zram at once
in_memcg "$HOG" 150 2 2
wait "$KID" || fail "the child failed: exit $?"
mt_wait_lines $(($(mt_lines) + 2))
mt_stop
vm=$(($(vmstat pswpin) - v0))
reads=$(($(awk '{ print $1 }' "/sys/block/$ZRAM/stat") - reads0))
[ "$reads" -gt 1000 ] || fail "$ZRAM served only $reads reads: the child's pages went elsewhere"
[ "$vm" -gt 1000 ] || fail "the child swapped in only $vm pages (vmstat); no test"

modes=$(jq -r .bpf.swapin_mode "$OUT" | uniq | tr '\n' ' ')
case $modes in
"idle bio " | "bio ") ;;
*) fail "swap-ins were not counted from bios throughout: $modes" ;;
esac
bpf=$(tail -n 1 "$OUT" | jq .bpf.swapins)
[ "$bpf" = "$vm" ] || fail "BPF counted $bpf swap-ins since start, /proc/vmstat $vm"
kid=$(jq -s --argjson p "$KID" '[.[1:][] | .interval_s as $i |
	.processes[] | select(.pid == $p) | .swapin_per_s * $i] | add // 0' "$OUT")
awk -v a="$kid" -v b="$vm" 'BEGIN { exit !(a > b * 0.9) }' ||
	fail "swap-ins attributed to the child: $kid of $vm"
echo "zram: $reads reads; swap-ins vmstat $vm, BPF $bpf, child $kid; modes $modes"
