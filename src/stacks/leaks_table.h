/* The outstanding-allocation table of bpf/leaks.bpf.c (address -> size, time, stack),
 * read and grouped by stack, with sampled sizes scaled back. */
#ifndef MEMTOP_LEAKS_TABLE_H
#define MEMTOP_LEAKS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "leaks_trace.h"

/* One outstanding allocation as recorded. */
struct leak_entry {
	uint32_t kind;
	int32_t ustack;
	uint64_t caller;
	uint64_t size;
	uint64_t ns;
};

/* The allocations made in [from_ns, to_ns) of CLOCK_MONOTONIC, bpf_ktime_get_ns()'s
 * clock: the window the rates are taken over, not what the probes saw before it began
 * (while the others were being attached) or in the instant after it ended. */
struct leak_window {
	uint64_t from_ns, to_ns;
};

/* Groups the entries of n (reordered) made in the window by stack into *out (allocated),
 * largest bytes first; an allocation under sample bytes stands for sample / size of its
 * kind. stack_fd is the stack-trace map (-1: none); ages are taken at the window's end.
 * Returns the groups. */
size_t leaks_group(struct leak_entry *e, size_t n, uint64_t sample, int stack_fd,
		   struct leak_window w, struct leak_stack **out);

/* Reads every entry of the allocs map alloc_fd and groups them as leaks_group does. */
size_t leaks_table_read(int alloc_fd, int stack_fd, uint64_t sample, struct leak_window w,
			struct leak_stack **out);

#endif
