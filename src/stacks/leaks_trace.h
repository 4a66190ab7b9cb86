/* Outstanding allocations of one process by stack (bpf/leaks.bpf.c): what its libc's
 * malloc, calloc, realloc, posix_memalign and aligned_alloc returned and free has not
 * taken back, and what it mmapped itself and has not munmapped, made within a window after
 * leaks_open. Allocations are sampled by size (one of s bytes with probability s /
 * LEAKS_SAMPLE_BYTES, every one from LEAKS_SAMPLE_BYTES up) and scaled back. Loaded only
 * while --leaks runs. */
#ifndef MEMTOP_LEAKS_TRACE_H
#define MEMTOP_LEAKS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stacks.h"

#define LEAKS_SAMPLE_BYTES 4096

enum leak_kind { LEAK_MALLOC, LEAK_MMAP, LEAK_KINDS };
extern const char *const leak_kind_names[LEAK_KINDS]; /* "malloc", "mmap" */

/* Outstanding allocations with one stack, their sizes scaled where sampled. */
struct leak_stack {
	enum leak_kind kind;
	double bytes, count; /* estimated: scaled by the sampling */
	uint64_t samples;    /* allocations recorded */
	bool estimated;	     /* some were sampled below LEAKS_SAMPLE_BYTES */
	double oldest;	     /* seconds since the oldest was made */
	bool first_is_call;  /* user[0] is where the call returns to (else inside it) */
	int nuser;
	uint64_t user[STACKS_DEPTH + 1]; /* innermost first */
};

struct leaks_totals {
	uint64_t allocs, alloc_bytes; /* allocator calls and mmaps seen, bytes asked */
	uint64_t sampled;	      /* of those, recorded */
	uint64_t frees, freed;	      /* free and munmap calls; of a recorded allocation */
	uint64_t lost_stacks, full;
};

struct leaks;

/* Loads and attaches for pid: uprobes on the libc it maps, the mmap tracepoints. NULL
 * with a one-line reason in why when it cannot. When uprobes cannot be had (a kernel
 * that refuses them, no libc mapped) the mmap part runs alone and note says why
 * ("uprobes unavailable: REASON"). */
struct leaks *leaks_open(int32_t pid, char *why, size_t len, char *note, size_t nlen);
/* The libc the uprobes are on ("" when none). */
const char *leaks_libc(const struct leaks *lk);
/* Ends the window: from now on the probes count and change nothing, so what leaks_read
 * finds is what stood at this moment. */
void leaks_stop(struct leaks *lk);
/* Every allocation made from from to to (clock_mono() seconds, the window) and still
 * outstanding, grouped by stack, largest first, into *out (allocated; the caller frees
 * it); returns how many. */
size_t leaks_read(struct leaks *lk, double from, double to, struct leak_stack **out,
		  struct leaks_totals *tot);
void leaks_close(struct leaks *lk);

#endif
