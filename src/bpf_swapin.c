/* Concern: swap-ins, system-wide and per process (bpf/swapin.bpf.c). Its programs that
 * count swap-ins are attached and detached by the swap gate (src/swap_gate.h). */
#include "bpf_concern.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <bpf/libbpf.h>

#include "../bpf/memtop.h"
#include "bpf/swapin.skel.h"
#include "bpf_procs.h"
#include "pidns.h"
#include "swap_gate.h"
#include "util.h"

struct swapin {
	struct swapin_bpf *skel;
	struct bpf_links links;
	/* count_memcg_events runs on every page fault: attached only while pages are in swap */
	struct swap_gate *gate;
	int gate_links; /* at the last collect */
};

static void swapin_close(void *state)
{
	struct swapin *w = state;

	if (!w)
		return;
	swap_gate_stop(w->gate);
	bpf_links_destroy(&w->links);
	swapin_bpf__destroy(w->skel);
	free(w);
}

static int swapin_load(void **state, char *why, size_t len)
{
	struct swapin *w = xcalloc(1, sizeof(*w));
	int err;

	w->skel = swapin_bpf__open();
	if (!w->skel) {
		err = -errno;
		goto fail;
	}
	/* the swap gate's */
	bpf_program__set_autoattach(w->skel->progs.count_memcg_events, false);
	bpf_program__set_autoattach(w->skel->progs.writeout, false);
	bpf_program__set_autoattach(w->skel->progs.swap_bio, false);
	PIDNS_CONFIGURE(w->skel);
	err = swapin_bpf__load(w->skel);
	if (err)
		goto fail;
	err = bpf_links_attach(&w->links, w->skel->obj, why, len);
	if (err)
		goto fail;
	w->gate = swap_gate_start(w->skel);
	*state = w;
	return 0;
fail:
	bpf_concern_why(why, len, "loading", err);
	swapin_close(w);
	return err;
}

static void swapin_collect(void *state, struct snapshot *s)
{
	struct swapin *w = state;
	const char *mode;

	if (w->gate) {
		w->gate_links = swap_gate_check(w->gate, s->vm.pswpin, &mode);
		snprintf(s->bpf.swapin_mode, sizeof(s->bpf.swapin_mode), "%s", mode);
	}
	s->bpf.have_swapin = true;
	s->bpf.swapins = w->skel->bss->swapins;
	bpf_procs_fill(bpf_map__fd(w->skel->maps.tgid_swapins), s, COL_SWAPIN);
}

static int swapin_links(const void *state)
{
	const struct swapin *w = state;

	return w->links.n + w->gate_links;
}

const struct bpf_concern bpf_swapin = {
	.name = "swap-ins per process",
	.needs = "swap-ins per process",
	.load = swapin_load,
	.collect = swapin_collect,
	.links = swapin_links,
	.close = swapin_close,
};
