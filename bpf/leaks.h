/* SPDX-License-Identifier: GPL-2.0 */
/* Types shared by bpf/leaks.bpf.c (outstanding allocations of one process) and
 * src/stacks/leaks_bpf.c. */
#ifndef MEMTOP_BPF_LEAKS_H
#define MEMTOP_BPF_LEAKS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define MTB_LK_DEPTH	  64	 /* frames kept per stack */
#define MTB_LK_MAX_STACKS 16384	 /* stack-trace map entries */
#define MTB_LK_MAX_ALLOCS 262144 /* outstanding sampled allocations */
#define MTB_LK_MAX_CALLS  4096	 /* threads inside an allocator call or mmap */

/* how the memory was had */
enum mtb_lk_kind {
	MTB_LK_MALLOC, /* malloc, calloc, realloc, posix_memalign, aligned_alloc */
	MTB_LK_MMAP,   /* mmap called by the program itself (not from inside malloc) */
	MTB_LK_KINDS,
};

/* one outstanding allocation, by address */
struct mtb_lk_alloc {
	__u64 size;
	__u64 ns;     /* bpf_ktime_get_ns() when it was made */
	__u64 caller; /* mmap: the word at the user stack pointer (the return address
		       * into mmap's caller, which walking frame pointers misses); else 0 */
	__s32 ustack; /* user stack id, or -errno */
	__u32 kind;
};

/* what a thread is inside of */
enum mtb_lk_call_kind {
	MTB_LK_CALL_ALLOC,    /* malloc, calloc */
	MTB_LK_CALL_MEMALIGN, /* posix_memalign: the pointer is written to old */
	MTB_LK_CALL_REALLOC,  /* realloc: old is freed when it moves or the size is 0 */
	MTB_LK_CALL_MMAP,
};

/* a thread between an allocator's entry and return */
struct mtb_lk_call {
	__u64 size;   /* bytes asked for */
	__u64 old;    /* realloc: the old pointer; posix_memalign: where the result goes */
	__u64 sp;     /* the user stack pointer at entry: a call from inside this one is
		       * deeper (lower); one at or above it means this one never returned
		       * (a longjmp out of it) and is forgotten */
	__u32 depth;  /* allocator calls nested inside this one (realloc calling malloc) */
	__u32 sample; /* 1: recorded when it returns */
	__u32 kind;
	__u32 pad;
};

/* per-CPU counters; user space sums them */
struct mtb_lk_cpu {
	__u64 allocs;	   /* allocator calls seen */
	__u64 alloc_bytes; /* bytes they asked for */
	__u64 sampled;	   /* of those, recorded */
	__u64 frees;	   /* free calls and munmaps seen */
	__u64 freed;	   /* of those, of a recorded allocation */
	__u64 mmaps;	   /* mmaps recorded */
	__u64 lost_stacks; /* stacks that could not be taken */
	__u64 full;	   /* allocations not recorded: a map was full */
};

#endif
