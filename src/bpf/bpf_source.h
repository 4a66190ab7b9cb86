/* BPF source: memtop's always-on kernel counters (OOM kills, reclaim latency, swap-ins
 * and reclaim stalls per process). Fills the bpf part of a snapshot, the per-process
 * BPF counters and new events. Never fails: when programs cannot load, the source is
 * off and says why in one line. */
#ifndef MEMTOP_BPF_SOURCE_H
#define MEMTOP_BPF_SOURCE_H

#include <stdbool.h>

#include "snapshot.h"

struct bpf_source;

/* How the programs load */
struct bpf_opts {
	/* why they are off ("--no-bpf"): nothing loads and the reason says "BPF off: <off>";
	 * NULL: they load */
	const char *off;
	/* --verbose (or MEMTOP_DEBUG=1 in the environment): libbpf's messages while loading
	 * to stderr; else they are dropped */
	bool verbose;
	/* --pin: a service that pins its programs for other memtops (bpf_pins.h), telling
	 * them its recording (a file or a directory; NULL: none) */
	bool pin;
	const char *recording;
	/* the concerns off for want of descriptors said in a line on stderr (-b, --json) */
	bool say_fds;
	/* only a service's pinned programs (bpf_pins.h), which take a few milliseconds:
	 * bpf_source_open returns NULL where there are none to use, and loads nothing */
	bool pins_only;
};

/* Opens, configures, loads and attaches; or, where a memtop service of this build has
 * pinned its programs (bpf_pins.h), uses them. NULL only with o->pins_only. */
struct bpf_source *bpf_source_open(const struct bpf_opts *o);

/* Fills s->bpf; b NULL (still loading, bpf_loader.h): s->bpf.loading and nothing else.
 * For each process in s->procs (sorted by pid) its swap-in and reclaim
 * stall counters (columns SWAPIN, RECLAIM) with their valid bits; appends events that happened
 * since the last call. */
void bpf_source_collect(struct bpf_source *b, struct snapshot *s);

/* Appends every process to s from the BPF task iterator, as proc_walk_collect would
 * (src/proc/proc_walk.h). Returns 0, or -1 when the iterator is off or failed. */
int bpf_source_walk(struct bpf_source *b, struct snapshot *s);

/* The cgroup iterator (bpf_cgroup_iter.h) while its concern is on; NULL if off. It lives
 * until bpf_source_close. */
struct cg_iter *bpf_source_cgroups(struct bpf_source *b);

void bpf_source_close(struct bpf_source *b);

#endif
