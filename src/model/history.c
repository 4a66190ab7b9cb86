/* The last hour in memory (history.h): the store, written at each refresh; read back by
 * history_series.c and history_trends.c.
 *
 * Samples are kept in tiers: the newest at every refresh, older ones one per bucket of 10
 * s, the oldest one per minute. A refresh is written to every tier: where it falls in
 * the same bucket as a tier's newest slot it overwrites that slot (system rates are
 * averaged over the bucket), else it takes a new slot, the oldest going. So each tier's
 * newest slot is the newest refresh, and its older slots the last refresh of their
 * bucket.
 *
 * System figures: the values it is given (every figure of sys_figures), a float each, at every
 * refresh for 900 refreshes (15 min at the default 1 s), then one per 10 s for an hour. Processes:
 * the columns marked .history in the column table, 4 bytes each (sizes in KiB, the low 32 bits of
 * counters: their differences stay right), for 64 refreshes (a minute at 1 s: the growth fits and
 * the OOM post-mortem's minute draw every refresh), then one per 10 s for 10 min, then one per
 * minute for an hour: 184 slots of 16 bytes, 2.9 KB a process, about 5.9 MB at 2000 processes,
 * for those that changed in the hour. One whose figures stayed the same at every sample held
 * (an idle process: most of them) keeps one row and no slots, about 150 bytes: 1.5 MB at
 * 10,000; its slots are made when it changes, and dropped when the change is older than the
 * oldest sample held.
 * A process gone is kept HISTORY_KEEP_GONE seconds (an OOM kill's post-mortem reads its curve),
 * then freed. The largest slab caches' sizes are kept in the processes' tiers as well
 * (history_slab.c): 736 bytes a cache, 27 KB at most. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history_impl.h"
#include "util.h"

static const struct tier_def sys_defs[SYS_TIERS] = {{0, 900}, {10, 360}};
static const struct tier_def proc_defs[PROC_TIERS] = {{0, 64}, {10, 60}, {60, 60}};

static void tier_init(struct tier *t, const struct tier_def *d, size_t base)
{
	t->step = d->step;
	t->cap = d->cap;
	t->base = base;
	t->mono = xcalloc(d->cap, sizeof(double));
	t->wall = xcalloc(d->cap, sizeof(double));
	t->count = xcalloc(d->cap, sizeof(unsigned));
}

static void tier_free(struct tier *t)
{
	free(t->mono);
	free(t->wall);
	free(t->count);
}

/* Takes a refresh at mono: returns its slot (absolute), *fresh when it is a new one */
static size_t tier_push(struct tier *t, double mono, double wall, bool *fresh)
{
	size_t newest = t->n ? (t->head + t->n - 1) % t->cap : 0;

	*fresh = !t->n || !t->step || floor(mono / t->step) != floor(t->mono[newest] / t->step);
	if (*fresh) {
		if (t->n == t->cap)
			t->head = (t->head + 1) % t->cap;
		else
			t->n++;
		newest = (t->head + t->n - 1) % t->cap;
		t->count[newest] = 0;
	}
	t->mono[newest] = mono;
	t->wall[newest] = wall;
	t->count[newest]++;
	return t->base + newest;
}

struct history *history_new(size_t nfig, const bool *mean)
{
	struct history *h = xcalloc(1, sizeof(*h));
	size_t base = 0;

	for (size_t k = 0; k < SYS_TIERS; k++) {
		tier_init(&h->sys[k], &sys_defs[k], base);
		base += sys_defs[k].cap;
	}
	h->nfig = nfig;
	h->mean = xcalloc(nfig ? nfig : 1, sizeof(bool));
	memcpy(h->mean, mean, nfig * sizeof(bool));
	h->figs = xcalloc(base * (nfig ? nfig : 1), sizeof(float));
	base = 0;
	for (size_t k = 0; k < PROC_TIERS; k++) {
		tier_init(&h->proc[k], &proc_defs[k], base);
		base += proc_defs[k].cap;
	}
	h->proc_slots = base;
	for (int c = 0; c < COL_COUNT; c++) {
		h->hcol[c] = -1;
		if (columns[c].history)
			h->hcol[c] = h->nhcol++;
	}
	if (h->nhcol > HISTORY_COLS_MAX)
		abort(); /* the column table marks more than HISTORY_COLS_MAX */
	return h;
}

static void hproc_free(struct hproc *p)
{
	free(p->v);
	free(p);
}

void history_free(struct history *h)
{
	if (!h)
		return;
	for (size_t k = 0; k < SYS_TIERS; k++)
		tier_free(&h->sys[k]);
	for (size_t k = 0; k < PROC_TIERS; k++)
		tier_free(&h->proc[k]);
	for (size_t i = 0; i < h->nprocs; i++)
		hproc_free(h->procs[i]);
	for (size_t i = 0; i < h->nslabs; i++)
		free(h->slabs[i].v);
	free(h->slabs);
	free(h->figs);
	free(h->mean);
	free(h->cur);
	free(h->procs);
	free(h->next);
	free(h);
}

size_t history_bytes_per_proc_sample(void)
{
	size_t n = 0;

	for (int c = 0; c < COL_COUNT; c++)
		n += columns[c].history;
	return n * sizeof(uint32_t);
}

size_t history_bytes(const struct history *h)
{
	size_t n = sizeof(*h), slots = 0;

	for (size_t k = 0; k < SYS_TIERS; k++)
		slots += h->sys[k].cap;
	n += slots * (h->nfig * sizeof(float) + 2 * sizeof(double) + sizeof(unsigned));
	n += h->proc_slots * (2 * sizeof(double) + sizeof(unsigned));
	n += (h->cap + h->next_cap) * sizeof(struct hproc *);
	n += h->nprocs * sizeof(struct hproc);
	for (size_t i = 0; i < h->nprocs; i++)
		if (h->procs[i]->v)
			n += h->proc_slots * (size_t)h->nhcol * sizeof(uint32_t);
	if (h->slabs)
		n += HISTORY_SLAB_MAX * sizeof(struct hslab) +
		     h->nslabs * h->proc_slots * sizeof(uint32_t);
	return n;
}

static void record_sys(struct history *h, const double *v, double mono, double wall)
{
	for (size_t k = 0; k < SYS_TIERS; k++) {
		struct tier *t = &h->sys[k];
		bool fresh;
		size_t slot = tier_push(t, mono, wall, &fresh);
		float *row = h->figs + slot * h->nfig;
		unsigned cnt = t->count[slot - t->base];
		for (size_t f = 0; f < h->nfig; f++) {
			if (fresh || !h->mean[f] || isnan(row[f]) || isnan(v[f]))
				row[f] = (float)v[f];
			else /* the mean of the refreshes in its bucket */
				row[f] += (float)((v[f] - row[f]) / cnt);
		}
	}
}

static void proc_values(const struct history *h, const struct proc_sample *p, uint32_t *out)
{
	for (int c = 0; c < COL_COUNT; c++) {
		int i = h->hcol[c];
		if (i < 0)
			continue;
		if (!(p->valid & COL_BIT(c))) {
			out[i] = NO_VALUE;
			continue;
		}
		uint64_t v = PROC_FIG(p, c);
		if (columns[c].kind == KIND_RATE) /* the counter's low bits */
			out[i] = (uint32_t)v;
		else
			out[i] = v >= NO_VALUE ? NO_VALUE - 1 : (uint32_t)v;
	}
}

static struct hproc *hproc_new(const struct proc_sample *p, double mono)
{
	struct hproc *r = xcalloc(1, sizeof(*r));

	r->pid = p->pid;
	r->start_ticks = p->start_ticks;
	r->first = mono;
	r->first_rss = r->first_swap = NO_VALUE;
	r->vchanged = mono;
	return r;
}

/* q's slots, when it changes: every sample held since its first has its one row */
static void hproc_expand(const struct history *h, struct hproc *q)
{
	size_t row = (size_t)h->nhcol * sizeof(uint32_t);

	q->v = xmalloc(h->proc_slots * row);
	memset(q->v, 0xff, h->proc_slots * row);
	for (size_t k = 0; k < PROC_TIERS; k++) {
		const struct tier *t = &h->proc[k];
		for (size_t i = 0; i < t->n; i++)
			if (tier_time(t, i) >= q->first)
				memcpy(q->v + slot_of(t, i) * (size_t)h->nhcol, q->same, row);
	}
}

/* The mono of the oldest sample held of the processes */
static double proc_oldest(const struct history *h)
{
	double oldest = h->now;

	for (size_t k = 0; k < PROC_TIERS; k++)
		if (h->proc[k].n && tier_time(&h->proc[k], 0) < oldest)
			oldest = tier_time(&h->proc[k], 0);
	return oldest;
}

/* Records q's values vals at this refresh's slots */
static void hproc_record(const struct history *h, struct hproc *q, const uint32_t *vals,
			 const size_t *slots, double oldest)
{
	size_t row = (size_t)h->nhcol * sizeof(uint32_t);

	if (q->first == h->now) {
		memcpy(q->same, vals, row);
	} else if (memcmp(q->same, vals, row)) {
		if (!q->v)
			hproc_expand(h, q);
		q->vchanged = h->now;
		memcpy(q->same, vals, row);
	}
	if (!q->v)
		return;
	for (size_t k = 0; k < PROC_TIERS; k++)
		memcpy(q->v + slots[k] * (size_t)h->nhcol, vals, row);
	if (q->vchanged <= oldest) { /* every sample held is this one's */
		free(q->v);
		q->v = NULL;
	}
}

/* A process not in this refresh: kept into *out while gone for a short while (returns 1),
 * else freed */
static size_t keep_gone(struct hproc *q, double now, struct hproc **out)
{
	if (now - q->last <= HISTORY_KEEP_GONE) {
		*out = q;
		return 1;
	}
	hproc_free(q);
	return 0;
}

void history_record(struct history *h, const struct snapshot *s, const double *figs)
{
	size_t slots[PROC_TIERS];
	bool fresh;

	record_sys(h, figs, s->mono, s->wall);
	for (size_t k = 0; k < PROC_TIERS; k++) {
		slots[k] = h->slots_now[k] = tier_push(&h->proc[k], s->mono, s->wall, &fresh);
		for (size_t i = 0; fresh && i < h->nslabs; i++) /* until a cache is read */
			h->slabs[i].v[slots[k]] = NO_VALUE;
	}
	h->before = h->now;
	h->now = s->mono;
	double oldest = proc_oldest(h);

	/* the processes of the snapshot and those kept, both by pid, side by side */
	size_t need = h->nprocs + s->nprocs;
	if (h->next_cap < need) {
		h->next_cap = need + need / 4;
		h->next = xrealloc(h->next, h->next_cap * sizeof(*h->next));
	}
	size_t n = 0, j = 0;
	uint32_t vals[COL_COUNT];
	if (h->cur_cap < s->nprocs) {
		h->cur_cap = s->nprocs + s->nprocs / 4;
		h->cur = xrealloc(h->cur, h->cur_cap * sizeof(*h->cur));
	}
	h->ncur = s->nprocs;
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_sample *p = &s->procs[i];
		/* those kept before p, or with its pid but another start: gone */
		while (j < h->nprocs &&
		       (h->procs[j]->pid < p->pid ||
			(h->procs[j]->pid == p->pid && h->procs[j]->start_ticks != p->start_ticks)))
			n += keep_gone(h->procs[j++], s->mono, h->next + n);
		struct hproc *q = j < h->nprocs && h->procs[j]->pid == p->pid
					  ? h->procs[j++]
					  : hproc_new(p, s->mono);
		q->last = s->mono;
		memcpy(q->comm, p->comm, sizeof(q->comm));
		proc_values(h, p, vals);
		if (q->first == s->mono) {
			q->first_rss = vals[h->hcol[COL_RSS]];
			q->first_swap = vals[h->hcol[COL_SWAP]];
		}
		if (q->first == s->mono || vals[h->hcol[COL_RSS]] != q->last_rss ||
		    vals[h->hcol[COL_SWAP]] != q->last_swap)
			q->changed = s->mono;
		q->last_rss = vals[h->hcol[COL_RSS]];
		q->last_swap = vals[h->hcol[COL_SWAP]];
		hproc_record(h, q, vals, slots, oldest);
		h->cur[i] = q;
		h->next[n++] = q;
	}
	while (j < h->nprocs)
		n += keep_gone(h->procs[j++], s->mono, h->next + n);
	/* a process gone and one new with the same pid: both kept, the gone one first */
	SWAP(h->procs, h->next);
	SWAP(h->cap, h->next_cap);
	h->nprocs = n;
}
