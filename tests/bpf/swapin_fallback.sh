#!/bin/sh
# A swap area whose device /proc/swaps does not name: a swapfile on an ext4 filesystem
# on zram. The kernel reads it synchronously, with bios that are not swap read bios, so
# memtop starts counting swap-ins from bios and must find out at run time: the first
# refresh whose bio count falls short of /proc/vmstat's pswpin leaves bio mode for good.
# From then on the per-fault program counts the swap-ins: a second child's swap-ins are
# exactly what vmstat counts over the same refreshes, and are attributed to that child.
. "$(dirname "$0")/lib.inc"
need_bpf
command -v mkfs.ext4 >/dev/null || skip "needs mkfs.ext4"
swap_child_memcg memtop-fallback-$$

zram_new
echo $((512 << 20)) >"/sys/block/$ZRAM/disksize" || fail "sizing $ZRAM"
mkfs.ext4 -q "/dev/$ZRAM" || fail "mkfs.ext4 /dev/$ZRAM"
mkdir "$WORK/mnt" && mount "/dev/$ZRAM" "$WORK/mnt" || fail "mounting /dev/$ZRAM"
MOUNT=$WORK/mnt

mt_start -n 400 -d 0.3
mt_wait_lines 1
swapfile_on 256 "$WORK/mnt"
mt_wait_lines $(($(mt_lines) + 2))
[ "$(mt_last | jq -r .bpf.swapin_mode)" = bio ] ||
	fail "a swapfile on a filesystem is not counted from bios at first: $(mt_last | jq -c .bpf)"
reads0=$(awk '{ print $1 }' "/sys/block/$ZRAM/stat")

# a child that swaps its pages out and back in
in_memcg "$HOG" 150 2
wait "$KID" || fail "the first child failed: exit $?"
# a process that parks pages in swap and sleeps: the per-fault program stays attached
# from here on (its attach after a first writeout races a quick swap-in; not tested here)
in_memcg "$HELPERS/alloc_child" 100 >"$WORK/park"
wait_ready "$WORK/park" || fail "the parking child never got ready"
mt_wait_lines $(($(mt_lines) + 2))
# nothing swaps in now: the second child's swap-ins are counted from this refresh on
q=$(mt_lines)
in_memcg "$HOG" 150 2 1 # and lives on for a refresh that shows its last swap-ins
wait "$KID" || fail "the second child failed: exit $?"
mt_wait_lines $(($(mt_lines) + 2))
mt_stop
reads=$(($(awk '{ print $1 }' "/sys/block/$ZRAM/stat") - reads0))
[ "$reads" -gt 1000 ] || fail "$ZRAM served only $reads reads: the child's pages went elsewhere"

jq -r .bpf.swapin_mode "$OUT" | uniq | tr '\n' ' ' >"$WORK/modes"
echo "modes: $(cat "$WORK/modes")"
# bio (after "idle" while no swap was on), then memcg, and bio never again
modes=" $(cat "$WORK/modes")"
rest=${modes#* bio }
case $modes in *" bio "*) ;; *) fail "never in bio mode: $modes" ;; esac
case $rest in
*bio*) fail "bio mode came back after it was left: $modes" ;;
memcg*) ;;
*) fail "bio mode was not followed by memcg: $modes" ;;
esac

# from the quiet refresh to the end: BPF = vmstat, and the second child has them
jq -s --argjson q "$q" '.[$q - 1:] | [(.[-1].system.pswpin - .[0].system.pswpin),
	(.[-1].bpf.swapins - .[0].bpf.swapins)] | @tsv' -r "$OUT" >"$WORK/after"
read -r vm bpf <"$WORK/after"
[ "$vm" -gt 1000 ] || fail "the second child swapped in only $vm pages; no test"
[ "$bpf" = "$vm" ] || fail "after bio mode: BPF counted $bpf swap-ins, /proc/vmstat $vm"
kid=$(jq -s --argjson q "$q" --argjson p "$KID" '[.[$q:][] | .interval_s as $i |
	.processes[] | select(.pid == $p) | .swapin_per_s * $i] | add // 0' "$OUT")
awk -v a="$kid" -v b="$vm" 'BEGIN { exit !(a > b * 0.9) }' ||
	fail "swap-ins attributed to the second child: $kid of $vm"
echo "$ZRAM served $reads reads; second child: vmstat $vm, BPF $bpf, attributed $kid"
