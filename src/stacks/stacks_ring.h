/* The reader of copied stacks (bpf/stacks.bpf.c's ring buffer): a thread that takes the
 * records as they come (every 50 ms, or when the ring is a quarter full), unwinds each
 * (unwind.c) and counts the stacks per (kind, frames, how they end). */
#ifndef MEMTOP_STACKS_RING_H
#define MEMTOP_STACKS_RING_H

#include <stddef.h>
#include <stdint.h>

#include "stacks.h"

struct stacks_ring;

/* Starts reading the ring buffer map ring_fd of process pid. NULL with a reason in why. */
struct stacks_ring *stacks_ring_start(int ring_fd, int32_t pid, char *why, size_t len);
/* Reads what is in the ring now, then appends every stack counted so far (cumulative)
 * to *recs from index n (reallocated; *cap its capacity): user frames unwound, the
 * kernel stack as an id in kstack (the caller reads it). Returns the new count; adds
 * the reader's figures to tot. */
size_t stacks_ring_read(struct stacks_ring *r, struct stack_rec **recs, size_t *cap, size_t n,
			struct stacks_totals *tot);
/* The process's executable mappings changed: its unwinder reads them again. */
void stacks_ring_maps_changed(struct stacks_ring *r);
void stacks_ring_stop(struct stacks_ring *r);

#endif
