/* Concern: swap-ins, system-wide and per process (bpf/swapin.bpf.c). Its programs that
 * count swap-ins are attached and detached by the swap gate (src/bpf/swap_gate.h). */
#include "bpf_concern.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <bpf/libbpf.h>

#include "bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "bpf_procs.h"
#include "kbtf.h"
#include "swap_gate.h"
#include "util.h"

struct swapin {
	struct bpf_concern_state c; /* first: bpf_concern_start's */
	/* count_memcg_events runs on every page fault: attached only while pages are in swap */
	struct swap_gate *gate;
	int gate_links; /* at the last collect */
	uint64_t base;	/* the programs' count of swap-ins when this memtop started */
};

static int swapin_start(void *state, char *why, size_t len)
{
	struct swapin *w = state;

	(void)why;
	(void)len;
	/* with another memtop's programs its gate opens and closes them */
	if (!w->c.pins)
		w->gate = swap_gate_start(w->c.skel);
	w->base = w->c.skel->bss->swapins;
	return 0;
}

static void swapin_stop(void *state)
{
	struct swapin *w = state;

	swap_gate_stop(w->gate);
}

static void swapin_collect(void *state, struct snapshot *s)
{
	struct swapin *w = state;
	const char *mode;

	if (w->gate) {
		w->gate_links = swap_gate_check(w->gate, s->vm[VS_PSWPIN], &mode);
		snprintf(s->bpf.swapin_mode, sizeof(s->bpf.swapin_mode), "%s", mode);
	} else if (w->c.pins) { /* as the other memtop's gate set it */
		const volatile struct memtop_bpf__bss *bss = w->c.skel->bss;
		mode = bss->swap_end_io ? "bio" : bss->gate_open ? "memcg" : "idle";
		snprintf(s->bpf.swapin_mode, sizeof(s->bpf.swapin_mode), "%s", mode);
	}
	s->bpf.have_swapin = true;
	s->bpf.swapins = w->c.skel->bss->swapins - w->base;
	bpf_procs_fill(bpf_map__fd(w->c.skel->maps.tgid_swapins), s, COL_SWAPIN);
}

static int swapin_links(const void *state)
{
	const struct swapin *w = state;

	return w->gate_links;
}

/* The two ways of counting (bpf/swapin.bpf.c): block_bio_queue passing the bio alone, with
 * the bio's block device in it (Linux 5.12); memcg/count_memcg_events (Linux 6.11) */
static int swapin_configure(struct memtop_bpf *skel, const struct btf *kernel, char *why,
			    size_t len)
{
	bool bio = !kernel || (kbtf_tp_nargs(kernel, "block_bio_queue") == 1 &&
			       kbtf_tp_arg_is(kernel, "block_bio_queue", 0, "bio") &&
			       kbtf_has_member(kernel, "bio", "bi_bdev"));
	bool memcg = !kernel || kbtf_tp_nargs(kernel, "count_memcg_events") >= 3;

	if (!bio && !memcg) {
		snprintf(why, len, "needs Linux 5.12 (block_bio_queue with the bio's device)");
		return -ENOTSUP;
	}
	skel->rodata->bio_way = bio;
	skel->rodata->memcg_way = memcg;
	return 0;
}

const struct bpf_concern bpf_swapin = {
	.name = "swap-ins per process",
	.needs = "swap-ins per process",
	.progs = {SKEL_PROG(swapin_exit)},
	/* the swap gate's */
	.later = {SKEL_PROG(count_memcg_events), SKEL_PROG(writeout), SKEL_PROG(swap_bio)},
	/* the gate's links of later, its ring buffer's epoll, eventfd, /proc/swaps held and
	 * read again */
	.fds = 7,
	.state_size = sizeof(struct swapin),
	.configure = swapin_configure,
	.start = swapin_start,
	.collect = swapin_collect,
	.links = swapin_links,
	.stop = swapin_stop,
};
