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
#define MTB_MAX_CGS    4096 /* per-memory-cgroup map entries (LRU) */
#define MTB_SWAP_DEVS  8    /* swap partitions whose synchronous reads are swap-ins */
#define MTB_MAX_CPUS   4096 /* CPUs whose per-CPU rss counter parts are added */

#define MTB_CG_ID_NONE (~0ULL) /* a task record's cgroup ids once it has exited */

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

/* oom/mark_victim, written into the log of kills (struct mtb_oom_slot) */
struct mtb_oom_event {
	__u64 ts_ns; /* CLOCK_MONOTONIC */
	__s32 pid;   /* victim tgid */
	__u32 uid;
	__s32 trigger_pid;  /* tgid of the task in whose context the kill ran */
	__u32 cg_depth;	    /* components in cg[], leaf first */
	__u32 cg_truncated; /* path had more than MTB_CG_LEVELS components */
	__u32 cg_valid;	    /* the memory cgroup was read; depth 0: the root */
	__u64 cg_id;	    /* its kernfs node id: the inode number of its directory */
	__u64 total_vm_pages;
	__u64 anon_pages;
	__u64 file_pages;
	__u64 shmem_pages;
	char comm[MTB_COMM_LEN];
	char trigger_comm[MTB_COMM_LEN];
	char cg[MTB_CG_LEVELS][MTB_CG_NAME];
};

/* The log of OOM kills: an array of MTB_OOM_LOG slots that any number of readers poll
 * (a ring buffer has one consumer; memtop's programs may be shared by several memtops).
 * Kill n (from 0, counted by oom_logged) goes to slot n % MTB_OOM_LOG, whose seq is 0
 * while it is written and n + 1 once it is whole. */
#define MTB_OOM_LOG 64
struct mtb_oom_slot {
	__u64 seq;
	struct mtb_oom_event e;
};

/* The task iterator's records (bpf/tasks.bpf.c), read from the iterator's file: one
 * per task, a process record for each thread-group leader and a thread record for each
 * other thread, whose fault counts /proc adds to its process's. */
enum mtb_task_kind {
	MTB_TASK_PROC = 1,
	MTB_TASK_THREAD = 2,
};

struct mtb_thread_rec {
	__u32 kind; /* MTB_TASK_THREAD */
	__s32 tgid;
	__u64 minflt;
	__u64 majflt;
};

/* the figures of /proc/PID/stat and statm that memtop lists; pages */
struct mtb_task_rec {
	__u32 kind; /* MTB_TASK_PROC */
	__s32 tgid;
	__s32 ppid;
	__u32 euid;
	__u32 flags;	/* task->flags (PF_KTHREAD) */
	__u32 state;	/* index into "RSDTtXZPI", as /proc's state letter */
	__u64 start_ns; /* start_boottime */
	__u64 minflt;	/* the leader's and those of the threads that exited */
	__u64 majflt;
	__u64 size;	/* total_vm */
	__u64 resident; /* file + anon + shmem, each counter summed over CPUs */
	__u64 shared;	/* file + shmem */
	__u64 text;
	__u64 data; /* data_vm + stack_vm */
	__u64 swap; /* swap entries, summed over CPUs */
	/* the kernfs node ids (directory inode numbers) of its cgroups: the memory
	 * controller's (v1 hierarchy, or on v2 the nearest with the controller on), and its
	 * cgroup in the v2 hierarchy; 0 where not read, MTB_CG_ID_NONE once every thread
	 * has exited (no cgroup.procs lists it) */
	__u64 memcg_id;
	__u64 cgroup2_id;
	char comm[MTB_COMM_LEN];
};

/* The cgroup iterator's records (bpf/cgroups.bpf.c): one per cgroup of the memory
 * hierarchy below the directory the iterator was made for, parents first (siblings in
 * the kernel's order, not by name). Page counters in pages, as the kernel keeps them (v1
 * "unlimited" is PAGE_COUNTER_MAX). Each record is followed by the cgroup's kernfs name,
 * name_len bytes and a NUL, padded with NULs to a multiple of 8 bytes (MTB_CG_NAME_ROOM). */
enum mtb_cg_have {
	MTB_CG_MEMCG = 1 << 0,	/* it has a struct mem_cgroup: the figures below were read */
	MTB_CG_ROOT = 1 << 1,	/* the kernel's root memory cgroup, whose usage files sum
				   the whole machine's statistics instead */
	MTB_CG_KMEM = 1 << 2,	/* kmem and soft_limit (cgroup v1's) were read */
	MTB_CG_EVENTS = 1 << 3, /* oom_kill was read */
	MTB_CG_NAMED = 1 << 4,	/* its name was read (else name_len is 0) */
	MTB_CG_STAT = 1 << 5,	/* anon, file and refaults were read */
	MTB_CG_KSTAT = 1 << 6,	/* kernel was read */
};

#define MTB_CG_NAME_MAX 256 /* a name's bytes with its NUL: NAME_MAX (255) and one */
/* the bytes that follow a record whose name has n bytes (NUL not counted) */
#define MTB_CG_NAME_ROOM(n) ((((n) + 1) + 7) & ~7)

struct mtb_cgroup_rec {
	__u64 id;	 /* the cgroup's kernfs node id: its directory's inode number */
	__u64 parent_id; /* its parent's; 0 for a hierarchy's root */
	__u64 seq;	 /* its place in the iterator's walk (bpf_iter_meta.seq_num) */
	__u32 have;	 /* enum mtb_cg_have */
	__u16 name_len;	 /* the bytes of its name that follow, NUL not counted */
	__u16 pad;
	__u64 usage; /* memory */
	__u64 max;
	__u64 high;
	__u64 low;
	__u64 min;
	__u64 swap;	/* v2: the swap counter; v1: memsw, memory + swap */
	__u64 swap_max; /* its max */
	__u64 kmem;	/* v1 kmem usage */
	__u64 soft_limit;
	__u64 oom_kill; /* memory_events[MEMCG_OOM_KILL] */
	/* memory.stat's, the subtree's, as of the kernel's last flush of its counters */
	__u64 anon;	/* pages: NR_ANON_MAPPED (v1 total_rss, v2 anon) */
	__u64 file;	/* pages: NR_FILE_PAGES (total_cache, file) */
	__u64 kernel;	/* pages: MEMCG_KMEM + MEMCG_SOCK (v2 kernel + sock) */
	__u64 refaults; /* WORKINGSET_REFAULT_ANON + _FILE */
};

#endif
