/* SPDX-License-Identifier: GPL-2.0 */
/* Types shared by memtop's BPF programs and user space: fixed width only. */
#ifndef MEMTOP_BPF_H
#define MEMTOP_BPF_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define MTB_COMM_LEN   16   /* TASK_COMM_LEN */
#define MTB_CG_LEVELS  8    /* memcg path components kept, leaf first */
#define MTB_CG_NAME    64   /* bytes per path component */
#define MTB_HIST_SLOTS 32   /* log2 microsecond buckets */
#define MTB_MAX_PROCS  8192 /* per-process map entries (LRU) */
#define MTB_SWAP_DEVS  8    /* swap partitions whose synchronous reads are swap-ins */

enum mtb_reclaim_kind {
	MTB_RC_DIRECT,
	MTB_RC_MEMCG,
	MTB_RC_SLAB,
	MTB_RC_KINDS,
};

/* slot i holds [2^i, 2^(i+1)) us, slot 0 holds [0, 2) */
struct mtb_hist {
	__u64 count;
	__u64 total_us;
	__u64 slots[MTB_HIST_SLOTS];
};

/* oom/mark_victim, sent through the ring buffer */
struct mtb_oom_event {
	__u64 ts_ns; /* CLOCK_MONOTONIC */
	__s32 pid;   /* victim tgid */
	__u32 uid;
	__s32 trigger_pid;  /* tgid of the task in whose context the kill ran */
	__u32 cg_depth;	    /* components in cg[], leaf first */
	__u32 cg_truncated; /* path had more than MTB_CG_LEVELS components */
	__u32 cg_valid;	    /* the memory cgroup was read; depth 0: the root */
	__u64 total_vm_pages;
	__u64 anon_pages;
	__u64 file_pages;
	__u64 shmem_pages;
	char comm[MTB_COMM_LEN];
	char trigger_comm[MTB_COMM_LEN];
	char cg[MTB_CG_LEVELS][MTB_CG_NAME];
};

#endif
