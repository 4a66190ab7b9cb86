/* Per-process BPF counters: reads a tgid -> u64 map into the snapshot's processes. */
#ifndef MEMTOP_BPF_PROCS_H
#define MEMTOP_BPF_PROCS_H

#include <stddef.h>

#include "snapshot.h"

/* Sets column col's counter of every process of s (sorted by pid) to its entry in map
 * fd, 0 where it has none, and marks it valid. */
void bpf_procs_fill(int fd, struct snapshot *s, enum col_id col);

#endif
