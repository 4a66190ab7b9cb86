/* Per-process BPF counters: reads a tgid -> u64 map into the snapshot's processes. */
#ifndef MEMTOP_BPF_PROCS_H
#define MEMTOP_BPF_PROCS_H

#include <stddef.h>

#include "snapshot.h"

/* Sets a uint64_t field of every process of s (sorted by pid), the one at offset in
 * struct proc_sample (offsetof), to its entry in map fd, 0 where it has none, and marks
 * the process bpf_valid. */
void bpf_procs_fill(int fd, struct snapshot *s, size_t offset);

#endif
