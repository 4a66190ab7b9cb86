// SPDX-License-Identifier: GPL-2.0
/* Reclaim latency: direct and memcg reclaim, shrink_slab, as log2 us histograms
 * counted in the kernel; reclaim stall time per process and per memory cgroup; kswapd
 * wakeups. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "memtop.h"
#include "pidns.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);   /* kind << 32 | tid */
	__type(value, __u64); /* start, ns */
} starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MTB_MAX_PROCS);
	__type(key, __u32);   /* tgid */
	__type(value, __u64); /* ns stalled in direct and memcg reclaim */
} tgid_reclaim SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MTB_MAX_CGS);
	__type(key, __u64);   /* the task's memory cgroup: kernfs node id (directory inode) */
	__type(value, __u64); /* ns its tasks stalled in direct and memcg reclaim */
} cg_reclaim SEC(".maps");

struct mtb_hist hists[MTB_RC_KINDS];
__u64 nr_reclaimed;
__u64 kswapd_wakeups;

static __always_inline int begin(__u32 kind)
{
	__u64 key = (__u64)kind << 32 | (__u32)bpf_get_current_pid_tgid();
	__u64 now = bpf_ktime_get_ns();

	bpf_map_update_elem(&starts, &key, &now, BPF_ANY);
	return 0;
}

static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 r = 0;

#pragma unroll
	for (__u32 s = 32; s; s >>= 1) {
		if (v >> s) {
			v >>= s;
			r += s;
		}
	}
	return r;
}

/* The kernfs node id of the current task's memory cgroup; 0 if it has none */
static __always_inline __u64 current_memcg_id(void)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct kernfs_node *kn;
	int id;

	if (!bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
		return 0;
	id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (id < 0 || id >= bpf_core_enum_value(enum cgroup_subsys_id, CGROUP_SUBSYS_COUNT))
		return 0;
	kn = BPF_CORE_READ(task, cgroups, subsys[id], cgroup, kn);
	return kn ? BPF_CORE_READ(kn, id) : 0;
}

/* Adds delta to key's entry of an LRU map of u64 counters */
static __always_inline void add(void *map, void *key, __u64 delta)
{
	__u64 *v = bpf_map_lookup_elem(map, key);

	if (v) {
		__sync_fetch_and_add(v, delta);
	} else if (bpf_map_update_elem(map, key, &delta, BPF_NOEXIST)) {
		v = bpf_map_lookup_elem(map, key);
		if (v)
			__sync_fetch_and_add(v, delta);
	}
}

static __always_inline int end(__u32 kind, __u64 reclaimed)
{
	__u64 key = (__u64)kind << 32 | (__u32)bpf_get_current_pid_tgid();
	__u64 *start = bpf_map_lookup_elem(&starts, &key);
	__u64 delta, us, cg;
	__u32 slot, tgid;

	if (!start)
		return 0;
	delta = bpf_ktime_get_ns() - *start;
	bpf_map_delete_elem(&starts, &key);
	if (kind >= MTB_RC_KINDS)
		return 0;
	us = delta / 1000;
	slot = log2_u64(us);
	if (slot >= MTB_HIST_SLOTS)
		slot = MTB_HIST_SLOTS - 1;
	__sync_fetch_and_add(&hists[kind].count, 1);
	__sync_fetch_and_add(&hists[kind].total_us, us);
	__sync_fetch_and_add(&hists[kind].slots[slot], 1);
	if (kind == MTB_RC_SLAB)
		return 0;
	__sync_fetch_and_add(&nr_reclaimed, reclaimed);
	cg = current_memcg_id();
	if (cg)
		add(&cg_reclaim, &cg, delta);
	tgid = mt_pid_tgid() >> 32;
	if (!tgid) /* outside memtop's PID namespace */
		return 0;
	add(&tgid_reclaim, &tgid, delta);
	return 0;
}

SEC("raw_tp/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(direct_begin)
{
	return begin(MTB_RC_DIRECT);
}

SEC("raw_tp/mm_vmscan_direct_reclaim_end")
int BPF_PROG(direct_end, unsigned long reclaimed)
{
	return end(MTB_RC_DIRECT, reclaimed);
}

SEC("raw_tp/mm_vmscan_memcg_reclaim_begin")
int BPF_PROG(memcg_begin)
{
	return begin(MTB_RC_MEMCG);
}

SEC("raw_tp/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(memcg_end, unsigned long reclaimed)
{
	return end(MTB_RC_MEMCG, reclaimed);
}

SEC("raw_tp/mm_shrink_slab_start")
int BPF_PROG(slab_begin)
{
	return begin(MTB_RC_SLAB);
}

SEC("raw_tp/mm_shrink_slab_end")
int BPF_PROG(slab_end)
{
	return end(MTB_RC_SLAB, 0);
}

SEC("raw_tp/mm_vmscan_kswapd_wake")
int BPF_PROG(kswapd_wake)
{
	__sync_fetch_and_add(&kswapd_wakeups, 1);
	return 0;
}

SEC("raw_tp/sched_process_exit")
int BPF_PROG(reclaim_exit)
{
	__u64 id = mt_pid_tgid();
	__u32 tgid = id >> 32;

	if (tgid && (__u32)id == tgid)
		bpf_map_delete_elem(&tgid_reclaim, &tgid);
	return 0;
}
