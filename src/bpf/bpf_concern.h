/* One always-on BPF counter or source, a "concern" (OOM kills, reclaim latency, swap-ins,
 * the process table's task iterator, the memory cgroups' iterator): its programs, how they
 * start and what they fill in a snapshot. (The cgroup iterator's start attaches nothing:
 * the cgroup reader makes its link while it needs it, bpf_cgroup_iter.h.) The concerns' programs
 * are linked into one BPF object (build/bpf/memtop.bpf.o, skeleton struct memtop_bpf), so that the
 * kernel's BTF is parsed once for all of them. bpf_source.c opens it, lets each concern configure
 * it, loads it and starts each concern; when the whole fails to load, it loads one object per
 * concern with only that concern's programs, so that one concern's failure leaves the others on. It
 * collects and closes each concern of BPF_CONCERNS in turn and says in one line which are off.
 *
 * A new concern is: its bpf/NAME.bpf.c (in the Makefile's BPF_LINKED), a src/bpf/bpf_NAME.c
 * that defines its descriptor (following src/bpf/bpf_reclaim.c: its state starts with a
 * struct bpf_concern_state, made by bpf_concern_new), one line in BPF_CONCERNS, and the
 * snapshot fields its collect fills. */
#ifndef MEMTOP_BPF_CONCERN_H
#define MEMTOP_BPF_CONCERN_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

struct memtop_bpf;
struct bpf_program;

#define BPF_CONCERN_PROGS 16 /* programs of one concern */

struct bpf_concern {
	const char *name;  /* "OOM kill tracing": "<name> off: <why>" in the reason line */
	const char *needs; /* "OOM kills": "not root (<needs>, ... need root)" */
	bool oom_kills;	   /* reports OOM kills as events: the kernel log is then read at
			      start only, for the kills from before */
	/* Its programs in skel, into progs (at most BPF_CONCERN_PROGS); returns how many. */
	size_t (*programs)(struct memtop_bpf *skel, struct bpf_program **progs);
	/* Before loading: sets its read-only settings in skel. Returns 0, or a negative
	 * errno with a few words in why when it cannot run on this kernel (its programs are
	 * then not loaded). NULL: nothing to set. */
	int (*configure)(struct memtop_bpf *skel, char *why, size_t len);
	/* After loading: attaches its programs and makes what else it needs. Returns 0 with
	 * its state in *state, or a negative errno with a few words in why, having freed
	 * all it made. skel outlives the state. */
	int (*start)(void **state, struct memtop_bpf *skel, char *why, size_t len);
	/* Fills its part of s: fields of s->bpf, its per-process counters (s->procs is
	 * sorted by pid), new events. NULL: nothing. */
	void (*collect)(void *state, struct snapshot *s);
	/* A walk of every process (src/proc_walk.h says what it fills): returns 0, or -1
	 * when it could not run (then /proc is walked). NULL: not a walk. */
	int (*walk)(void *state, struct snapshot *s);
	/* Programs attached, as of the last collect. */
	int (*links)(const void *state);
	/* Detaches and frees; also the cleanup of a failed start. NULL does nothing. */
	void (*close)(void *state);
};

/* Every concern, in the order they load; their descriptors are in src/bpf/bpf_<name>.c. */
#define BPF_CONCERNS(X)                                                                            \
	X(bpf_oom)                                                                                 \
	X(bpf_reclaim)                                                                             \
	X(bpf_swapin)                                                                              \
	X(bpf_tasks)                                                                               \
	X(bpf_cgroup_iter)

#define BPF_CONCERN_DECLARE(c) extern const struct bpf_concern c;
BPF_CONCERNS(BPF_CONCERN_DECLARE)

/* Helpers for the concerns' start and close */

struct bpf_link;

struct bpf_links {
	struct bpf_link *link[BPF_CONCERN_PROGS];
	int n;
};

/* Attaches each of progs meant to attach by its section name. On failure detaches
 * those, names the tracepoint in why and returns a negative errno. */
int bpf_links_attach(struct bpf_links *l, struct bpf_program *const *progs, size_t n, char *why,
		     size_t len);

void bpf_links_destroy(struct bpf_links *l);

/* The part of a concern's state that the helpers below keep, the first member of that
 * state: the skeleton and the programs attached at start */
struct bpf_concern_state {
	struct memtop_bpf *skel;
	struct bpf_links links;
};

/* The common part of start: a state of size bytes, zeroed, whose first member is a
 * struct bpf_concern_state, with c's programs meant to attach at start attached. NULL
 * with a negative errno in *err and a few words in why, having freed all it made. */
void *bpf_concern_new(const struct bpf_concern *c, size_t size, struct memtop_bpf *skel, char *why,
		      size_t len, int *err);
/* links, for a concern whose programs are those bpf_concern_new attached */
int bpf_concern_links(const void *state);
/* The common part of close: detaches what bpf_concern_new attached and frees the state.
 * NULL does nothing. */
void bpf_concern_free(void *state);

/* "<what>: <strerror(-err)>" in why, unless why already says something. */
void bpf_concern_why(char *why, size_t len, const char *what, int err);

#endif
