/* Concern: reclaim latency, system-wide histograms and stalls per process, from the vmscan
 * tracepoints (bpf/reclaim.bpf.c). */
#include "bpf_concern.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include <bpf/libbpf.h>

#include "../bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "bpf_procs.h"
#include "util.h"

_Static_assert(MTB_HIST_SLOTS == MT_HIST_SLOTS, "histogram slots differ");

struct reclaim {
	struct memtop_bpf *skel;
	struct bpf_links links;
};

static size_t reclaim_programs(struct memtop_bpf *skel, struct bpf_program **p)
{
	size_t n = 0;

	p[n++] = skel->progs.direct_begin;
	p[n++] = skel->progs.direct_end;
	p[n++] = skel->progs.memcg_begin;
	p[n++] = skel->progs.memcg_end;
	p[n++] = skel->progs.slab_begin;
	p[n++] = skel->progs.slab_end;
	p[n++] = skel->progs.kswapd_wake;
	p[n++] = skel->progs.reclaim_exit;
	return n;
}

static void reclaim_close(void *state)
{
	struct reclaim *r = state;

	if (!r)
		return;
	bpf_links_destroy(&r->links);
	free(r);
}

static int reclaim_start(void **state, struct memtop_bpf *skel, char *why, size_t len)
{
	struct reclaim *r = xcalloc(1, sizeof(*r));
	struct bpf_program *progs[BPF_CONCERN_PROGS];
	int err;

	r->skel = skel;
	err = bpf_links_attach(&r->links, progs, reclaim_programs(skel, progs), why, len);
	if (err) {
		reclaim_close(r);
		return err;
	}
	*state = r;
	return 0;
}

static void copy_hist(struct mt_hist *dst, const struct mtb_hist *src)
{
	dst->count = src->count;
	dst->total_us = src->total_us;
	for (int i = 0; i < MT_HIST_SLOTS; i++)
		dst->slots[i] = src->slots[i];
}

static void reclaim_collect(void *state, struct snapshot *s)
{
	struct reclaim *r = state;
	const struct memtop_bpf__bss *bss = r->skel->bss;
	struct reclaim_stats *st = &s->bpf.reclaim;

	s->bpf.have_reclaim = true;
	copy_hist(&st->direct, &bss->hists[MTB_RC_DIRECT]);
	copy_hist(&st->memcg, &bss->hists[MTB_RC_MEMCG]);
	copy_hist(&st->shrink_slab, &bss->hists[MTB_RC_SLAB]);
	st->nr_reclaimed = bss->nr_reclaimed;
	st->kswapd_wakeups = bss->kswapd_wakeups;
	bpf_procs_fill(bpf_map__fd(r->skel->maps.tgid_reclaim), s, COL_RECLAIM);
}

static int reclaim_links(const void *state)
{
	return ((const struct reclaim *)state)->links.n;
}

const struct bpf_concern bpf_reclaim = {
	.name = "reclaim latency",
	.needs = "reclaim latency",
	.programs = reclaim_programs,
	.start = reclaim_start,
	.collect = reclaim_collect,
	.links = reclaim_links,
	.close = reclaim_close,
};
