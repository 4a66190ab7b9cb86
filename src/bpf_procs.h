/* Per-process BPF counters: reads a tgid -> u64 map into the snapshot's processes. */
#ifndef MEMTOP_BPF_PROCS_H
#define MEMTOP_BPF_PROCS_H

#include "snapshot.h"

enum bpf_procs_field {
	BPF_PROCS_SWAPINS,
	BPF_PROCS_RECLAIM,
};

/* Sets the field of every process of s (sorted by pid) that has an entry in map fd. */
void bpf_procs_fill(int fd, struct snapshot *s, enum bpf_procs_field field);

#endif
