// SPDX-License-Identifier: GPL-2.0
/* Swap-ins per process and system-wide, counted where the kernel counts PSWPIN, in the
 * task that swaps in. Two ways, user space picks one:
 * - block/block_bio_queue: the read bio of each swapped-in folio, recognised by its
 *   completion function: end_swap_bio_read, or, for a synchronous device (zram, pmem, a
 *   RAM disk), submit_bio_wait's on a swap partition (addresses from kallsyms, devices
 *   from /proc/swaps). Fires once per bio, never on a plain page fault. Misses swap-ins
 *   without such a bio (a swapfile on a synchronous device, swap over a filesystem's
 *   swap_rw, kernels whose zram reads pages without bios); user space checks the count
 *   against /proc/vmstat and falls back.
 * - memcg/count_memcg_events PSWPIN: every path, but the tracepoint fires on every page
 *   fault (PGFAULT), so the program filters on the item first and user space attaches
 *   it only while swap-ins can happen, that is while pages are in swap. A page gets
 *   there only through reclaim's writeout (vmscan/mm_vmscan_write_folio, rare), which
 *   wakes user space at once to attach it. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "memtop.h"
#include "pidns.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MTB_MAX_PROCS);
	__type(key, __u32);   /* tgid */
	__type(value, __u64); /* pages swapped in */
} tgid_swapins SEC(".maps");

__u64 swapins;
__u64 bio_swapins;		/* of those, counted from bios */
__u64 swap_end_io;		/* user space: address of end_swap_bio_read; 0 until known */
__u64 sync_end_io;		/* user space: address of submit_bio_wait_endio */
__u32 swap_devs[MTB_SWAP_DEVS]; /* user space: swap partitions, as the kernel's dev_t */
__u32 nswap_devs;
__u32 page_shift; /* user space */
__u64 writeouts;  /* folios reclaim wrote out, to swap or to files */
__u32 gate_open;  /* user space: no wake-up needed (every swap-in is counted) */
/* user space: which of the two ways this kernel has (its tracepoints as they expect) */
const volatile bool bio_way = true;
const volatile bool memcg_way = true;
__u32 wake_sent; /* a wake-up is on its way; user space clears it */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096); /* one page: wake-ups only */
} wake SEC(".maps");

static __always_inline void count_swapins(__u64 val)
{
	__u32 tgid = mt_pid_tgid() >> 32;
	__u64 *v;

	__sync_fetch_and_add(&swapins, val);
	if (!tgid) /* outside memtop's PID namespace */
		return;
	v = bpf_map_lookup_elem(&tgid_swapins, &tgid);
	if (v) {
		__sync_fetch_and_add(v, val);
		return;
	}
	__u64 init = val;

	if (bpf_map_update_elem(&tgid_swapins, &tgid, &init, BPF_NOEXIST)) {
		v = bpf_map_lookup_elem(&tgid_swapins, &tgid);
		if (v)
			__sync_fetch_and_add(v, val);
	}
}

SEC("raw_tp/count_memcg_events")
int BPF_PROG(count_memcg_events, struct mem_cgroup *memcg, int item, unsigned long val)
{
	if (item != bpf_core_enum_value(enum vm_event_item, PSWPIN))
		return 0;
	count_swapins(val);
	return 0;
}

/* A synchronous read of a swap partition: on a dedicated device, a swap-in */
static __always_inline bool sync_swap_read(struct bio *bio)
{
	__u32 n = nswap_devs, dev;

	if ((BPF_CORE_READ(bio, bi_opf) & 0xff) != REQ_OP_READ) /* REQ_OP_MASK */
		return false;
	dev = BPF_CORE_READ(bio, bi_bdev, bd_dev);
	for (__u32 i = 0; i < MTB_SWAP_DEVS; i++)
		if (i < n && swap_devs[i] == dev)
			return true;
	return false;
}

SEC("raw_tp/block_bio_queue")
int BPF_PROG(swap_bio, struct bio *bio)
{
	__u64 end_io = (__u64)BPF_CORE_READ(bio, bi_end_io);

	if (!swap_end_io)
		return 0;
	if (end_io != swap_end_io && !(sync_end_io && end_io == sync_end_io && sync_swap_read(bio)))
		return 0;
	__u64 pages = BPF_CORE_READ(bio, bi_iter.bi_size) >> page_shift;

	__sync_fetch_and_add(&bio_swapins, pages);
	count_swapins(pages);
	return 0;
}

/* Attached by name: mm_vmscan_write_folio, or mm_vmscan_writepage before Linux 6.0. */
SEC("raw_tp")
int BPF_PROG(writeout)
{
	__u32 one = 1;

	__sync_fetch_and_add(&writeouts, 1);
	if (gate_open || wake_sent)
		return 0;
	wake_sent = 1;
	bpf_ringbuf_output(&wake, &one, sizeof(one), BPF_RB_FORCE_WAKEUP);
	return 0;
}

SEC("raw_tp/sched_process_exit")
int BPF_PROG(swapin_exit)
{
	__u64 id = mt_pid_tgid();
	__u32 tgid = id >> 32;

	if (tgid && (__u32)id == tgid)
		bpf_map_delete_elem(&tgid_swapins, &tgid);
	return 0;
}
