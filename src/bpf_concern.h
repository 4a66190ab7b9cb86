/* One always-on BPF counter, a "concern" (OOM kills, reclaim latency, swap-ins): its
 * programs, how they load and what they fill in a snapshot. bpf_source.c loads, collects
 * and closes each concern of BPF_CONCERNS in turn and says in one line which are off.
 *
 * A new counter is: its bpf/NAME.bpf.c, a src/bpf_NAME.c that defines its descriptor
 * (following src/bpf_reclaim.c), one line in BPF_CONCERNS, and the snapshot fields its
 * collect fills. */
#ifndef MEMTOP_BPF_CONCERN_H
#define MEMTOP_BPF_CONCERN_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

struct bpf_concern {
	const char *name;  /* "OOM kill tracing": "<name> off: <why>" in the reason line */
	const char *needs; /* "OOM kills": "not root (<needs>, ... need root)" */
	bool oom_kills;	   /* reports OOM kills as events: the kernel log is then read at
			      start only, for the kills from before */
	/* Opens, configures, loads and attaches its programs. Returns 0 with its state in
	 * *state, or a negative errno with a few words in why, having freed all it made. */
	int (*load)(void **state, char *why, size_t len);
	/* Fills its part of s: fields of s->bpf, its per-process counters (s->procs is
	 * sorted by pid), new events. */
	void (*collect)(void *state, struct snapshot *s);
	/* Programs attached, as of the last collect. */
	int (*links)(const void *state);
	/* Detaches and frees; also the cleanup of a failed load. NULL does nothing. */
	void (*close)(void *state);
};

/* Every concern, in the order they load; their descriptors are in src/bpf_<name>.c. */
#define BPF_CONCERNS(X)                                                                            \
	X(bpf_oom)                                                                                 \
	X(bpf_reclaim)                                                                             \
	X(bpf_swapin)

#define BPF_CONCERN_DECLARE(c) extern const struct bpf_concern c;
BPF_CONCERNS(BPF_CONCERN_DECLARE)

/* Helpers for the concerns' load and close */

struct bpf_object;
struct bpf_link;

#define BPF_CONCERN_LINKS 16 /* programs one concern attaches at load */

struct bpf_links {
	struct bpf_link *link[BPF_CONCERN_LINKS];
	int n;
};

/* Attaches every program of obj meant to attach by its section name. On failure detaches
 * those, names the tracepoint in why and returns a negative errno. */
int bpf_links_attach(struct bpf_links *l, struct bpf_object *obj, char *why, size_t len);

void bpf_links_destroy(struct bpf_links *l);

/* "<what>: <strerror(-err)>" in why, unless why already says something. */
void bpf_concern_why(char *why, size_t len, const char *what, int err);

#endif
