/* Concern: reclaim latency, system-wide histograms and stalls per process and per memory
 * cgroup, from the vmscan tracepoints (bpf/reclaim.bpf.c). */
#include "bpf_concern.h"

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
	struct bpf_concern_state c; /* first: bpf_concern_new's */
	struct cg_index *index;	    /* the listed cgroups by id */
	size_t index_cap;
};

struct cg_index {
	uint64_t id;
	size_t i;
};

#define CG_BATCH 256

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

	if (r)
		free(r->index);
	bpf_concern_free(r);
}

static int reclaim_start(void **state, struct memtop_bpf *skel, char *why, size_t len)
{
	int err;

	*state = bpf_concern_new(&bpf_reclaim, sizeof(struct reclaim), skel, why, len, &err);
	return *state ? 0 : err;
}

static void copy_hist(struct mt_hist *dst, const struct mtb_hist *src)
{
	dst->count = src->count;
	dst->total_us = src->total_us;
	for (int i = 0; i < MT_HIST_SLOTS; i++)
		dst->slots[i] = src->slots[i];
}

static int cmp_index(const void *a, const void *b)
{
	uint64_t x = ((const struct cg_index *)a)->id, y = ((const struct cg_index *)b)->id;
	return (x > y) - (x < y);
}

static void set_stall(const struct reclaim *r, struct snapshot *s, uint64_t id, uint64_t ns)
{
	struct cg_index key = {.id = id};
	const struct cg_index *at = bsearch(&key, r->index, s->ncgroups, sizeof(key), cmp_index);

	if (at)
		s->cgroups[at->i].v[CGCOL_STALL] = ns;
}

/* Each listed cgroup's stall counter, from the map keyed by cgroup id: 0 where it has no
 * entry. The map holds the cgroups that reclaimed since memtop started (LRU-bounded). */
static void fill_cgroups(struct reclaim *r, struct snapshot *s)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	int fd = bpf_map__fd(r->c.skel->maps.cg_reclaim), err;
	__u64 keys[CG_BATCH], vals[CG_BATCH], batch, *in = NULL;
	__u32 count;

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
	do {
		count = CG_BATCH;
		err = bpf_map_lookup_batch(fd, in, &batch, keys, vals, &count, &opts);
		if (err && err != -ENOENT)
			break;
		for (__u32 i = 0; i < count; i++)
			set_stall(r, s, keys[i], vals[i]);
		in = &batch;
	} while (!err);
	if (!err || err == -ENOENT)
		return;
	/* a kernel without batch lookups on hash maps: one entry at a time */
	__u64 key, next, v;
	void *prev = NULL;
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (bpf_map_lookup_elem(fd, &next, &v) == 0)
			set_stall(r, s, next, v);
		key = next;
		prev = &key;
	}
}

static void reclaim_collect(void *state, struct snapshot *s)
{
	struct reclaim *r = state;
	const struct memtop_bpf__bss *bss = r->c.skel->bss;
	struct reclaim_stats *st = &s->bpf.reclaim;

	s->bpf.have_reclaim = true;
	copy_hist(&st->direct, &bss->hists[MTB_RC_DIRECT]);
	copy_hist(&st->memcg, &bss->hists[MTB_RC_MEMCG]);
	copy_hist(&st->shrink_slab, &bss->hists[MTB_RC_SLAB]);
	st->nr_reclaimed = bss->nr_reclaimed;
	st->kswapd_wakeups = bss->kswapd_wakeups;
	bpf_procs_fill(bpf_map__fd(r->c.skel->maps.tgid_reclaim), s, COL_RECLAIM);
	if ((s->cg_cols & CGCOL_BIT(CGCOL_STALL)) && s->ncgroups)
		fill_cgroups(r, s);
}

const struct bpf_concern bpf_reclaim = {
	.name = "reclaim latency",
	.needs = "reclaim latency",
	.programs = reclaim_programs,
	.start = reclaim_start,
	.collect = reclaim_collect,
	.links = bpf_concern_links,
	.close = reclaim_close,
};
