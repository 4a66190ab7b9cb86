/* Concern: reclaim latency, system-wide histograms and stalls per process and per memory
 * cgroup, from the vmscan tracepoints (bpf/reclaim.bpf.c). */
#include "bpf_concern.h"
#include "kbtf.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/memtop.h"
#include "bpf/memtop.skel.h"
#include "bpf_procs.h"
#include "util.h"

_Static_assert(MTB_HIST_SLOTS == MT_HIST_SLOTS, "histogram slots differ");

struct reclaim {
	struct bpf_concern_state c; /* first: bpf_concern_start's */
	struct cg_index *index;	    /* the listed cgroups by id */
	size_t index_cap;
	/* the programs' figures when this memtop started: not 0 where they are another
	 * memtop's (bpf_pins.h) */
	struct reclaim_stats base;
};

struct cg_index {
	uint64_t id;
	size_t i;
};

static void reclaim_stop(void *state)
{
	struct reclaim *r = state;

	free(r->index);
}

/* The count is the slots' sum, not the program's count: a stall that ends while the
 * histogram is read may be in one and not yet in the other (each is added to on its own),
 * and the interval's buckets would not add up to its count */
static void copy_hist(struct mt_hist *dst, const struct mtb_hist *src, const struct mt_hist *base)
{
	dst->total_us = src->total_us - base->total_us;
	dst->count = 0;
	for (int i = 0; i < MT_HIST_SLOTS; i++) {
		dst->slots[i] = src->slots[i] - base->slots[i];
		dst->count += dst->slots[i];
	}
}

/* The figures as the programs count them, less base */
static void read_stats(const struct memtop_bpf__bss *bss, struct reclaim_stats *st,
		       const struct reclaim_stats *base)
{
	copy_hist(&st->direct, &bss->hists[MTB_RC_DIRECT], &base->direct);
	copy_hist(&st->memcg, &bss->hists[MTB_RC_MEMCG], &base->memcg);
	copy_hist(&st->shrink_slab, &bss->hists[MTB_RC_SLAB], &base->shrink_slab);
	st->nr_reclaimed = bss->nr_reclaimed - base->nr_reclaimed;
	st->kswapd_wakeups = bss->kswapd_wakeups - base->kswapd_wakeups;
}

static int reclaim_start(void *state, char *why, size_t len)
{
	struct reclaim *r = state;
	const struct reclaim_stats zero = {0};

	(void)why;
	(void)len;
	read_stats(r->c.skel->bss, &r->base, &zero);
	return 0;
}

static int cmp_index(const void *a, const void *b)
{
	uint64_t x = ((const struct cg_index *)a)->id, y = ((const struct cg_index *)b)->id;
	return (x > y) - (x < y);
}

struct stall_ctx {
	const struct reclaim *r;
	struct snapshot *s;
};

static void set_stall(void *ctx, uint64_t id, uint64_t ns)
{
	const struct stall_ctx *c = ctx;
	struct cg_index key = {.id = id};
	const struct cg_index *at =
		bsearch(&key, c->r->index, c->s->ncgroups, sizeof(key), cmp_index);

	if (at)
		c->s->cgroups[at->i].v[CGCOL_STALL] = ns;
}

/* Each listed cgroup's stall counter, from the map keyed by cgroup id: 0 where it has no
 * entry. The map holds the cgroups that reclaimed since memtop started (LRU-bounded). */
static void fill_cgroups(struct reclaim *r, struct snapshot *s)
{
	struct stall_ctx c = {r, s};

	if (r->index_cap < s->ncgroups) {
		r->index_cap = s->ncgroups;
		r->index = xrealloc(r->index, r->index_cap * sizeof(*r->index));
	}
	for (size_t i = 0; i < s->ncgroups; i++) {
		r->index[i] = (struct cg_index){.id = s->cgroups[i].id, .i = i};
		s->cgroups[i].v[CGCOL_STALL] = 0;
		s->cgroups[i].valid |= CGCOL_BIT(CGCOL_STALL);
	}
	qsort(r->index, s->ncgroups, sizeof(*r->index), cmp_index);
	bpf_map_each(bpf_map__fd(r->c.skel->maps.cg_reclaim), sizeof(__u64), set_stall, &c);
}

static void reclaim_collect(void *state, struct snapshot *s)
{
	struct reclaim *r = state;
	const struct memtop_bpf__bss *bss = r->c.skel->bss;
	struct reclaim_stats *st = &s->bpf.reclaim;

	s->bpf.have_reclaim = true;
	read_stats(bss, st, &r->base);
	bpf_procs_fill(bpf_map__fd(r->c.skel->maps.tgid_reclaim), s, COL_RECLAIM);
	if ((s->cg_cols & CGCOL_BIT(CGCOL_STALL)) && s->ncgroups)
		fill_cgroups(r, s);
}

/* Every tracepoint its programs attach to (raw_tp/NAME) is there */
static int reclaim_configure(struct memtop_bpf *skel, const struct btf *kernel, char *why,
			     size_t len)
{
	static const char *const tps[] = {
		"mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end",
		"mm_vmscan_memcg_reclaim_begin",  "mm_vmscan_memcg_reclaim_end",
		"mm_shrink_slab_start",		  "mm_shrink_slab_end",
		"mm_vmscan_kswapd_wake",	  "sched_process_exit",
	};

	(void)skel;
	for (size_t i = 0; kernel && i < sizeof(tps) / sizeof(tps[0]); i++)
		if (kbtf_tp_nargs(kernel, tps[i]) < 0) {
			snprintf(why, len, "no tracepoint %s", tps[i]);
			return -ENOTSUP;
		}
	return 0;
}

const struct bpf_concern bpf_reclaim = {
	.name = "reclaim latency",
	.needs = "reclaim latency",
	.progs = {SKEL_PROG(direct_begin), SKEL_PROG(direct_end), SKEL_PROG(memcg_begin),
		  SKEL_PROG(memcg_end), SKEL_PROG(slab_begin), SKEL_PROG(slab_end),
		  SKEL_PROG(kswapd_wake), SKEL_PROG(reclaim_exit)},
	.state_size = sizeof(struct reclaim),
	.configure = reclaim_configure,
	.start = reclaim_start,
	.collect = reclaim_collect,
	.stop = reclaim_stop,
};
