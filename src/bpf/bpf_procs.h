/* Reading BPF counter maps: each entry of a hash map of u64 values, and the per-process
 * counters (tgid -> u64 maps) into the snapshot's processes. */
#ifndef MEMTOP_BPF_PROCS_H
#define MEMTOP_BPF_PROCS_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

/* Calls fn(ctx, key, value) for each entry of the hash map fd, whose keys are key_size
 * bytes (4 or 8) and values u64: in batches, or one entry at a time on kernels without
 * batch lookups on hash maps (then an entry may be given twice). */
void bpf_map_each(int fd, size_t key_size, void (*fn)(void *ctx, uint64_t key, uint64_t v),
		  void *ctx);

/* Sets column col's counter of every process of s (sorted by pid) to its entry in map
 * fd, 0 where it has none, and marks it valid. */
void bpf_procs_fill(int fd, struct snapshot *s, enum col_id col);

#endif
