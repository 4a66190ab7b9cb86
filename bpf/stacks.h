/* SPDX-License-Identifier: GPL-2.0 */
/* Types shared by bpf/stacks.bpf.c (the drill-down's stack sampler) and src/stacks/stacks.c. */
#ifndef MEMTOP_BPF_STACKS_H
#define MEMTOP_BPF_STACKS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define MTB_DD_DEPTH	     64	   /* frames kept per stack */
#define MTB_DD_MAX_STACKS    16384 /* stack-trace map entries */
#define MTB_DD_MAX_KEYS	     8192  /* (kind, stacks) counters */
#define MTB_DD_MAX_PAGES     16384 /* sampled fault pages between two drains */
#define MTB_DD_MAX_CALLS     1024  /* threads inside brk/mmap/munmap */
#define MTB_DD_COPY_MAX	     65536 /* most bytes of user stack copied per event */
#define MTB_DD_CHUNK	     4096  /* the copy goes page by page: it ends at the first unreadable */
#define MTB_DD_RING_BYTES    (8 << 20) /* the ring buffer of copied stacks */
#define MTB_DD_WINDOWS_PER_S 10	       /* the copy budget is shared out per 100 ms */
#define MTB_DD_FAULTS	     0	       /* the copy budget's parts: sampled faults */
#define MTB_DD_CALLS	     1	       /* and brk, mmap, munmap calls */

enum mtb_dd_kind {
	MTB_DD_FAULT,
	MTB_DD_BRK,
	MTB_DD_MMAP,
	MTB_DD_MUNMAP,
	MTB_DD_KFAULT, /* a fault in kernel mode on user memory */
	MTB_DD_KINDS,
};

/* what one counter is for; caller is the word at the user stack pointer when it looks
 * like a return address (0 otherwise): in a function without a frame of its own, the
 * return address into the caller that walking frame pointers misses */
struct mtb_dd_key {
	__u32 kind;
	__s32 ustack; /* user stack id, or -errno */
	__u64 caller;
};

/* the kernel stack is taken once, when the counter is made: at these tracepoints it is
 * always the same way in (the exception or syscall entry), and walking it costs more
 * than all else the sampler does */
struct mtb_dd_val {
	__u64 count;  /* events (faults: samples) */
	__u64 bytes;  /* brk growth, mmap or munmap length; faults: 0 */
	__s32 kstack; /* kernel stack id, or -errno; -1 when kernel stacks are off */
	__u32 pad;
};

/* per-CPU counters; user space sums them */
struct mtb_dd_cpu {
	__u64 faults;	   /* every page fault of the target in user mode */
	__u64 kfaults;	   /* in kernel mode, on its user memory */
	__u64 countdown;   /* faults left until the next sample */
	__u64 samples;	   /* faults sampled (both modes) */
	__u64 calls;	   /* brk, mmap and munmap calls completed */
	__u64 lost_stacks; /* stacks that could not be taken */
	__u64 full;	   /* events dropped because a map was full */
	__u64 ring_full;   /* copied stacks dropped: the ring buffer was full */
	__u64 copy_fail;   /* copied stacks of 0 bytes: the stack pointer was unreadable */
	/* the budget of copied stacks (stacks.bpf.c's copy_weight), a quarter of it for the
	 * sampled faults, the rest for the calls (MTB_DD_FAULTS, MTB_DD_CALLS): a bucket of
	 * tokens as of tokens_ns, then a uniform sample (the target's events counted in
	 * stacks.bpf.c's rate), its copies capped per window of 100 ms from window_ns:
	 * past the cap, calls (their bytes summed) and sampled faults are counted, not
	 * copied */
	__u64 tokens_ns[2];
	__u64 tokens[2];
	__u64 window_ns[2];
	__u64 win_copies[2];
	__u64 sampled_out; /* events left out by that sampling (others weigh for them) */
	__u64 over_budget;
	__u64 over_budget_bytes;
	__u64 over_budget_faults;
};

/* A copied stack, as one ring-buffer record: this header, then len bytes of the user
 * stack from sp up. The user registers unwinding starts from (x86-64: ip, sp, bp). */
struct mtb_dd_rec {
	__u32 kind;
	__u32 tid;
	__u64 ip;
	__u64 sp;
	__u64 bp;
	__u64 bytes;  /* brk growth, mmap or munmap length; faults: 0 */
	__s32 kstack; /* the kind's kernel stack id (taken once), or -1 */
	__u32 len;    /* bytes of stack that follow */
	__u32 weight; /* events this record stands for (1, or n past the budget) */
	__u32 pad;
};

/* per-CPU scratch for one record (an array map indexed by CPU: a per-CPU array's
 * values are limited to 32 KiB); a chunk of slack so the verifier sees every chunk fit */
struct mtb_dd_scratch {
	struct mtb_dd_rec h;
	__u8 stack[MTB_DD_COPY_MAX + MTB_DD_CHUNK];
};

/* a brk, mmap or munmap call between entry and exit */
struct mtb_dd_call {
	struct mtb_dd_key key;
	__u64 arg;    /* brk: the break at entry; mmap, munmap: length */
	__s32 kstack; /* taken at entry when the counter is new; else -1 */
	__u32 pad;
};

#endif
