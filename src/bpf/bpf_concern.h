/* One always-on BPF counter or source, a "concern" (OOM kills, reclaim latency, swap-ins,
 * the process table's task iterator, the memory cgroups' iterator): its programs, how they
 * start and what they fill in a snapshot. The concerns' programs are linked into one BPF
 * object (build/bpf/memtop.bpf.o, skeleton struct memtop_bpf), so that the kernel's BTF is
 * parsed once for all of them. bpf_source.c opens it, lets each concern configure it, loads
 * it and starts each concern; when the whole fails to load, it loads one object per concern
 * with only that concern's programs, so that one concern's failure leaves the others on. It
 * collects and closes each concern of BPF_CONCERNS in turn and says in one line which are
 * off.
 *
 * What every concern does alike is done here, once (bpf_concern_start, bpf_concern_close):
 * its state is allocated zeroed (state_size bytes, starting with a struct
 * bpf_concern_state), its programs listed in progs are attached, and at the end detached
 * and the state freed. A concern's own hooks do only what is its own.
 *
 * A new concern is: its bpf/NAME.bpf.c (in the Makefile's BPF_LINKED), a src/bpf/bpf_NAME.c
 * that defines its descriptor (following src/bpf/bpf_reclaim.c), one line in BPF_CONCERNS,
 * and the snapshot fields its collect fills. */
#ifndef MEMTOP_BPF_CONCERN_H
#define MEMTOP_BPF_CONCERN_H

#include <stdbool.h>
#include <stddef.h>

#include "snapshot.h"

struct memtop_bpf;
struct bpf_program;
struct bpf_link;
struct bpf_pins;
struct btf;

#define BPF_CONCERN_PROGS 16 /* programs of one concern, in each of its two lists */

/* A program of the skeleton, by its place in struct memtop_bpf (never 0, which ends a
 * list): SKEL_PROG(mark_victim) */
#define SKEL_PROG(prog) offsetof(struct memtop_bpf, progs.prog)

struct bpf_concern {
	const char *name;  /* "OOM kill tracing": "<name> off: <why>" in the reason line */
	const char *needs; /* "OOM kills": "not root (<needs>, ... need root)" */
	bool oom_kills;	   /* reports OOM kills as events: the kernel log is then read at
			      start only, for the kills from before */
	/* Its programs (SKEL_PROG), each list ended by 0 where shorter than BPF_CONCERN_PROGS.
	 * progs are attached after loading, by their section names; later are loaded with
	 * them but attached by the concern itself, when it needs them. */
	size_t progs[BPF_CONCERN_PROGS];
	size_t later[BPF_CONCERN_PROGS];
	/* progs are alternatives, versions of one program for different kernels: its
	 * configure loads one, and with pins the one pinned is used */
	bool one_of;
	/* Descriptors it holds or opens at once beyond one a program of both lists and one a
	 * link of progs: the links of later it attaches itself, its ring buffers' epoll, its
	 * files, an iterator's read (bpf_concern_fds) */
	int fds;
	/* Its state: this many bytes, zeroed, whose first member is a struct
	 * bpf_concern_state */
	size_t state_size;
	/* Before loading: asks the kernel's BTF (kbtf.h; NULL where it could not be read)
	 * whether what its programs need is there, and sets its read-only settings in skel.
	 * Returns 0, or a negative errno with a few words in why when it cannot run on this
	 * kernel ("needs Linux 6.1 (...)"; its programs are then not loaded). NULL: nothing to
	 * ask or set. */
	int (*configure)(struct memtop_bpf *skel, const struct btf *kernel, char *why, size_t len);
	/* After its progs are attached: makes what else it needs. Returns 0, or a negative
	 * errno with a few words in why (stop then runs). NULL: nothing more. */
	int (*start)(void *state, char *why, size_t len);
	/* Fills its part of s: fields of s->bpf, its per-process counters (s->procs is
	 * sorted by pid), new events. NULL: nothing. */
	void (*collect)(void *state, struct snapshot *s);
	/* A walk of every process (src/proc/proc_walk.h says what it fills): returns 0, or
	 * -1 when it could not run (then /proc is walked). NULL: not a walk. */
	int (*walk)(void *state, struct snapshot *s);
	/* The programs of later it has attached, as of the last collect. NULL: none. */
	int (*links)(const void *state);
	/* Frees what start and collect made, before its progs are detached and its state
	 * freed; also after a failed start (the state's other members then zero). NULL:
	 * nothing. */
	void (*stop)(void *state);
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

/* The first member of every concern's state, kept by bpf_concern_start */
struct bpf_concern_state {
	struct memtop_bpf *skel;		  /* outlives the state */
	struct bpf_pins *pins;			  /* another memtop's programs (bpf_pins.h), or
						     NULL: skel's own, loaded */
	struct bpf_link *link[BPF_CONCERN_PROGS]; /* of progs, in their order */
	size_t link_at[BPF_CONCERN_PROGS];	  /* each one's program (SKEL_PROG) */
	int nlinks;
};

/* The descriptors c takes at most, as it loads and runs: its programs, their links and
 * its fds. A concern is loaded only where the descriptors leave it these beside a refresh's
 * reserve (fds.h). */
int bpf_concern_fds(const struct bpf_concern *c);

/* Marks c's programs, both lists, to be loaded with skel (on) or not. */
void bpf_concern_autoload(const struct bpf_concern *c, struct memtop_bpf *skel, bool on);

/* c's first program to be loaded with skel, of both lists; NULL: none */
struct bpf_program *bpf_concern_first_loaded(const struct bpf_concern *c, struct memtop_bpf *skel);

/* After loading: c's state, with its progs attached and its start run. NULL with a
 * negative errno in *err and a few words in why, having freed all it made. With pins,
 * skel is not loaded but given the pinned maps, and the progs' pinned links are opened
 * instead of attaching them; a concern's start then leaves what the service that pinned
 * them does alone (the swap gate). */
void *bpf_concern_start(const struct bpf_concern *c, struct memtop_bpf *skel, struct bpf_pins *pins,
			char *why, size_t len, int *err);

/* The descriptor of c's program at place at (SKEL_PROG), its own or the pinned one's; -1
 * with errno set */
int bpf_concern_prog_fd(const struct bpf_concern_state *st, size_t at);

/* A service: pins c's attached programs' links and its later iterator programs in pins.
 * 0 or a negative errno. */
int bpf_concern_pin(const struct bpf_concern *c, const void *state, struct bpf_pins *pins);

/* Programs of c attached, as of the last collect */
int bpf_concern_links(const struct bpf_concern *c, const void *state);

/* Runs c's stop, detaches its progs and frees state: the one cleanup path. NULL does
 * nothing. */
void bpf_concern_close(const struct bpf_concern *c, void *state);

/* "<what>: <strerror(-err)>" in why, unless why already says something. */
void bpf_concern_why(char *why, size_t len, const char *what, int err);

#endif
