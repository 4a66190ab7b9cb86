/* The drill-down's BPF sampler for one process (bpf/stacks.bpf.c): page faults sampled
 * 1 in N with their stacks and addresses, brk, mmap and munmap calls with their stacks
 * and sizes. Attached by stacks_open, detached by stacks_close: it costs nothing while
 * no detail view (or --stacks) is open. */
#ifndef MEMTOP_STACKS_H
#define MEMTOP_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STACKS_DEFAULT_RATE 64
#define STACKS_DEPTH	    64

enum stack_kind { STACK_FAULT, STACK_BRK, STACK_MMAP, STACK_MUNMAP, STACK_KINDS };

extern const char *const stack_kind_names[STACK_KINDS]; /* "fault", "brk", "mmap", "munmap" */

/* One counter read from the kernel: raw addresses, innermost first. */
struct stack_rec {
	enum stack_kind kind;
	uint64_t events; /* faults: samples; calls: calls */
	uint64_t bytes;	 /* brk growth, mmap or munmap length; faults: 0 */
	uint64_t caller; /* word at the user stack pointer at syscall entry; 0 for faults */
	int nuser;
	int nkernel;
	uint64_t user[STACKS_DEPTH];
	uint64_t kernel[STACKS_DEPTH];
};

struct stacks_totals {
	uint64_t faults;  /* every page fault of the process while attached */
	uint64_t samples; /* of those, sampled */
	uint64_t calls;	  /* brk, mmap, munmap calls */
	uint64_t lost_stacks;
	uint64_t full; /* events dropped: a map was full */
};

struct stacks;

/* Opens, configures (target tgid, mean faults per sample), loads and attaches. NULL
 * with a one-line reason in why when it cannot (not root, no BTF, no tracepoint). */
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

/* Detaches and frees. */
void stacks_close(struct stacks *st);

#endif
