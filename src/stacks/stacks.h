/* The drill-down's BPF sampler for one process (bpf/stacks.bpf.c): page faults sampled
 * 1 in N with their stacks and addresses, brk, mmap and munmap calls with their stacks
 * and sizes. Attached by stacks_open, detached by stacks_close: it costs nothing while
 * no detail view (or --stacks) is open. */
#ifndef MEMTOP_STACKS_H
#define MEMTOP_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STACKS_DEFAULT_RATE  64
#define STACKS_DEPTH	     64
#define STACKS_DEFAULT_BYTES 16384 /* of user stack copied per event */
/* stacks copied (sampled faults and calls), at most, a second and a CPU: STACKS_COPIES, or
 * MEMTOP_STACKS_COPIES (100 to 100,000) where set, for the tests to pass it on any machine
 * (stacks_copies()) */
#define STACKS_COPIES	 3000
#define STACKS_MAX_BYTES 65536
#define STACKS_MIN_BYTES 512

/* STACK_KFAULT: a page fault the kernel took in kernel mode on the process's user memory
 * (read() into a fresh buffer, execve copying arguments); STACK_FAULT: one in user mode */
enum stack_kind { STACK_FAULT, STACK_BRK, STACK_MMAP, STACK_MUNMAP, STACK_KFAULT, STACK_KINDS };

/* "fault", "brk", "mmap", "munmap", "kfault" */
extern const char *const stack_kind_names[STACK_KINDS];
/* Whether stacks of kind k are page faults (sampled; else calls, counted) */
static inline bool stack_kind_fault(enum stack_kind k)
{
	return k == STACK_FAULT || k == STACK_KFAULT;
}

/* How the user frames were found: unwinding a copy of the stack with the programs' CFI
 * (.eh_frame, .debug_frame), or walking frame pointers (in the kernel, or in user space
 * from a function that keeps them where it has no CFI). */
enum stack_method { METHOD_DWARF, METHOD_FP };
extern const char *const stack_method_names[2]; /* "dwarf", "fp" */

/* Why the user frames end before the outermost one: nothing ended them early, the walk
 * ran past the bytes copied, reached code without CFI (JIT, a deleted file) and no frame
 * pointer, an address in no executable mapping, STACKS_DEPTH frames, the CFI gave no
 * caller, or a frame-pointer walk ended at the innermost frame (no frame pointers). */
enum stack_trunc {
	TRUNC_NONE,
	TRUNC_COPY,
	TRUNC_NO_CFI,
	TRUNC_NOT_EXEC,
	TRUNC_DEPTH,
	TRUNC_UNWIND,
	TRUNC_FP_ONE,
	TRUNC_KINDS
};
struct stack_trunc_kind {
	const char *name;   /* JSON's truncated_reason: "stack_copy", ... */
	const char *reason; /* text: "the walk needed more of the stack ..." */
};
extern const struct stack_trunc_kind stack_truncs[TRUNC_KINDS];

/* How stacks are taken: by default copied and unwound with CFI, else frame pointers. */
struct sym_ref;

struct stacks_conf {
	bool fp;	      /* --unwind fp: frame pointers walked in the kernel */
	unsigned stack_bytes; /* --stack-bytes: of user stack copied per event */
};
/* Sets how the stacks opened from now on are taken (main does, from the options). */
void stacks_configure(const struct stacks_conf *conf);
const struct stacks_conf *stacks_config(void);

/* One counter read from the kernel: raw addresses, innermost first. */
struct stack_rec {
	enum stack_kind kind;
	uint64_t events; /* faults: samples; calls: calls (past the budget: estimated) */
	bool estimated;	 /* events is an estimate: records copied weighed for others */
	uint64_t bytes;	 /* brk growth, mmap or munmap length; faults: 0 */
	uint64_t caller; /* word at the user stack pointer at syscall entry; 0 for faults
			  * and copied stacks */
	enum stack_method method;
	enum stack_trunc trunc; /* copied stacks: why their frames end; else TRUNC_NONE */
	int32_t kstack;		/* kernel stack id (-1: none) */
	int nuser;
	int nkernel;
	uint64_t user[STACKS_DEPTH];
	uint64_t kernel[STACKS_DEPTH];
	/* copied stacks: each user frame resolved with the modules the walk went through
	 * (code unmapped since, by dlclose, stays named); NULL otherwise */
	const struct sym_ref *usym;
};

struct stacks_totals {
	uint64_t faults;  /* every page fault of the process while attached, user mode */
	uint64_t kfaults; /* in kernel mode on its user memory (perf's page-faults: both) */
	uint64_t samples; /* of those, sampled */
	uint64_t calls;	  /* brk, mmap, munmap calls */
	uint64_t lost_stacks;
	uint64_t full; /* events dropped: a map was full */
	/* copied stacks */
	bool copied;
	unsigned stack_bytes; /* most bytes copied per event */
	uint64_t ring_full;   /* dropped: the ring buffer was full */
	uint64_t copy_fail;   /* stacks of 0 bytes (the stack pointer was unreadable) */
	/* calls and sampled faults past the budget of copied stacks (copies_per_s a
	 * second and a CPU): counted (calls with their bytes), not unwound */
	unsigned copies_per_s;
	uint64_t over_budget, over_budget_bytes, over_budget_faults;
	/* events past the budget's share left out by the uniform sample that copies each
	 * with probability 1/n (the records copied weigh n) */
	uint64_t sampled_out;
	uint64_t records;     /* read from the ring buffer */
	uint64_t ring_bytes;  /* of them (headers and stacks) */
	uint64_t unwind_hits; /* stacks whose walk was known from an earlier one */
	double unwind_cpu;    /* seconds of CPU spent reading and unwinding them */
};

struct stacks;

/* Opens, configures (target tgid, mean faults per sample), loads and attaches. NULL
 * with a one-line reason in why when it cannot (not root, no BTF, no tracepoint). */
unsigned stacks_copies(void);
struct stacks *stacks_open(int32_t pid, unsigned rate, char *why, size_t len);
unsigned stacks_rate(const struct stacks *st);

/* Every counter so far (cumulative since open) into *recs (reallocated; *cap its
 * capacity); returns how many. Stacks are read once per id and kept. */
size_t stacks_read(struct stacks *st, struct stack_rec **recs, size_t *cap,
		   struct stacks_totals *tot);

/* Sampled fault pages since the last drain, removed from the kernel map: calls
 * fn(arg, address, samples) for each. */
void stacks_drain_pages(struct stacks *st, void (*fn)(void *arg, uint64_t addr, uint64_t n),
			void *arg);

/* The process's executable mappings changed (dlopen, dlclose, exec): stacks copied
 * from now on are unwound over its modules read again. */
void stacks_maps_changed(struct stacks *st);

/* Detaches and frees. */
void stacks_close(struct stacks *st);

#endif
