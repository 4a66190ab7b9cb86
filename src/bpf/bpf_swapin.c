/* Concern: swap-ins, system-wide and per process (bpf/swapin.bpf.c). Its programs that
 * count swap-ins are attached and detached by the swap gate (src/swap_gate.h). */
#include "bpf_concern.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <bpf/libbpf.h>

#include "bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "bpf_procs.h"
#include "swap_gate.h"
#include "util.h"

struct swapin {
	struct bpf_concern_state c; /* first: bpf_concern_new's */
	/* count_memcg_events runs on every page fault: attached only while pages are in swap */
	struct swap_gate *gate;
	int gate_links; /* at the last collect */
};

static size_t swapin_programs(struct memtop_bpf *skel, struct bpf_program **p)
{
	size_t n = 0;

	p[n++] = skel->progs.swapin_exit;
	/* the swap gate's: not attached at start */
	p[n++] = skel->progs.count_memcg_events;
	p[n++] = skel->progs.writeout;
	p[n++] = skel->progs.swap_bio;
	return n;
}

static int swapin_configure(struct memtop_bpf *skel, char *why, size_t len)
{
	(void)why;
	(void)len;
	bpf_program__set_autoattach(skel->progs.count_memcg_events, false);
	bpf_program__set_autoattach(skel->progs.writeout, false);
	bpf_program__set_autoattach(skel->progs.swap_bio, false);
	return 0;
}

static void swapin_close(void *state)
{
	struct swapin *w = state;

	if (w)
		swap_gate_stop(w->gate);
	bpf_concern_free(w);
}

static int swapin_start(void **state, struct memtop_bpf *skel, char *why, size_t len)
{
	int err;
	struct swapin *w = bpf_concern_new(&bpf_swapin, sizeof(*w), skel, why, len, &err);

	if (!w)
		return err;
	w->gate = swap_gate_start(skel);
	*state = w;
	return 0;
}

static void swapin_collect(void *state, struct snapshot *s)
{
	struct swapin *w = state;
	const char *mode;

	if (w->gate) {
		w->gate_links = swap_gate_check(w->gate, s->vm[VS_PSWPIN], &mode);
		snprintf(s->bpf.swapin_mode, sizeof(s->bpf.swapin_mode), "%s", mode);
	}
	s->bpf.have_swapin = true;
	s->bpf.swapins = w->c.skel->bss->swapins;
	bpf_procs_fill(bpf_map__fd(w->c.skel->maps.tgid_swapins), s, COL_SWAPIN);
}

static int swapin_links(const void *state)
{
	const struct swapin *w = state;

	return w->c.links.n + w->gate_links;
}

const struct bpf_concern bpf_swapin = {
	.name = "swap-ins per process",
	.needs = "swap-ins per process",
	.programs = swapin_programs,
	.configure = swapin_configure,
	.start = swapin_start,
	.collect = swapin_collect,
	.links = swapin_links,
	.close = swapin_close,
};
