/* BPF source: memtop's always-on kernel counters (OOM kills, reclaim latency, swap-ins
 * and reclaim stalls per process). Fills the bpf part of a snapshot, the per-process
 * BPF counters and new events. Never fails: when programs cannot load, the source is
 * off and says why in one line. */
#ifndef MEMTOP_BPF_SOURCE_H
#define MEMTOP_BPF_SOURCE_H

#include <stdbool.h>

#include "snapshot.h"

struct bpf_source;

/* Opens, configures, loads and attaches. With off, why it is off ("--no-bpf"), loads
 * nothing and says "BPF off: <off>". With
 * verbose (--verbose), or MEMTOP_DEBUG=1 in the environment, libbpf's messages while
 * loading go to stderr; else they are dropped. */
struct bpf_source *bpf_source_open(const char *off, bool verbose);
/* MEMTOP_DEBUG is set, and not to 0 */
bool bpf_debug_env(void);

/* Fills s->bpf; b NULL (still loading, bpf_loader.h): s->bpf.loading and nothing else.
 * For each process in s->procs (sorted by pid) its swap-in and reclaim
 * stall counters (columns SWAPIN, RECLAIM) with their valid bits; appends events that happened
 * since the last call. */
void bpf_source_collect(struct bpf_source *b, struct snapshot *s);

/* Appends every process to s from the BPF task iterator, as proc_walk_collect would
 * (src/proc_walk.h). Returns 0, or -1 when the iterator is off or failed. */
int bpf_source_walk(struct bpf_source *b, struct snapshot *s);

/* The cgroup iterator (bpf_cgroup_iter.h) while its concern is on; NULL if off. It lives
 * until bpf_source_close. */
struct cg_iter *bpf_source_cgroups(struct bpf_source *b);

void bpf_source_close(struct bpf_source *b);

#endif
