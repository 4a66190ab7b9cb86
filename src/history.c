/* The last hour in memory (history.h).
 *
 * Samples are kept in tiers: the newest at every refresh, older ones one per bucket of 10
 * s, the oldest one per minute. A refresh is written to every tier: where it falls in
 * the same bucket as a tier's newest slot it overwrites that slot (system rates are
 * averaged over the bucket), else it takes a new slot, the oldest going. So each tier's
 * newest slot is the newest refresh, and its older slots the last refresh of their
 * bucket.
 *
 * System figures: every figure of sys_figures, a float each, at every refresh for 900
 * refreshes (15 min at the default 1 s), then one per 10 s for an hour.
 * Processes: the columns marked .history in the column table, 4 bytes each (sizes in KiB,
 * the low 32 bits of counters: their differences stay right), for 30 refreshes, then
 * one per 10 s for 10 min, then one per minute for an hour: 150 slots of 16 bytes, 2.4
 * KB a process, about 4.9 MB at 2000 processes. A process gone is kept HISTORY_KEEP_GONE
 * seconds (an OOM kill's post-mortem reads its curve), then freed. */
#include "history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "model.h"
#include "snapshot.h"
#include "sysfig.h"
#include "util.h"

#define NO_VALUE UINT32_MAX /* a process figure not read at that refresh */

struct tier_def {
	double step; /* seconds a slot's bucket spans; 0: one slot a refresh */
	size_t cap;
};

static const struct tier_def sys_defs[] = {{0, 900}, {10, 360}};
static const struct tier_def proc_defs[] = {{0, 30}, {10, 60}, {60, 60}};
#define SYS_TIERS  (sizeof(sys_defs) / sizeof(sys_defs[0]))
#define PROC_TIERS (sizeof(proc_defs) / sizeof(proc_defs[0]))

/* The times of one tier's slots: a ring, slot i of the n held at (head + i) % cap, the
 * newest last */
struct tier {
	double step;
	size_t cap, head, n, base; /* base: where its slots start in a record's array */
	double *mono, *wall;
	unsigned *count; /* refreshes averaged into each slot */
};

struct hproc {
	int32_t pid;
	uint64_t start_ticks;
	char comm[MT_COMM_LEN + 1];
	double first, last;		/* mono of its first and last sample */
	uint32_t first_rss, first_swap; /* at its first sample (NO_VALUE: not read) */
	uint32_t *v;			/* by slot, then history column */
};

struct history {
	struct tier sys[SYS_TIERS], proc[PROC_TIERS];
	size_t nfig;
	float *figs; /* by slot, then figure */
	int hcol[COL_COUNT];
	int nhcol;
	size_t proc_slots;
	struct hproc **procs; /* by pid */
	size_t nprocs, cap;
	struct hproc **next; /* room for the next refresh's list */
	size_t next_cap;
	struct hproc **cur; /* by index in the snapshot last recorded */
	size_t ncur, cur_cap;
	struct memo { /* a slot looked up for all processes: span seconds before newest */
		double span, newest, at;
		size_t slot;
		bool found;
	} memo[4];
};

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

/* The slot of the i-th oldest sample */
static size_t slot_of(const struct tier *t, size_t i)
{
	return t->base + (t->head + i) % t->cap;
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

/* The index (0 oldest) of the newest sample at or before time t; -1 if none */
static long tier_at_or_before(const struct tier *t, double time)
{
	long lo = 0, hi = (long)t->n - 1, found = -1;

	while (lo <= hi) {
		long mid = (lo + hi) / 2;
		if (t->mono[(t->head + (size_t)mid) % t->cap] <= time) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

static double tier_time(const struct tier *t, size_t i)
{
	return t->mono[(t->head + i) % t->cap];
}

/* The finest tier of n whose oldest sample is at or before time, else the coarsest */
static const struct tier *tier_for(const struct tier *tiers, size_t n, double time)
{
	for (size_t k = 0; k < n; k++)
		if (tiers[k].n && tier_time(&tiers[k], 0) <= time)
			return &tiers[k];
	return &tiers[n - 1];
}

struct history *history_new(void)
{
	struct history *h = xcalloc(1, sizeof(*h));
	size_t base = 0;

	for (size_t k = 0; k < SYS_TIERS; k++) {
		tier_init(&h->sys[k], &sys_defs[k], base);
		base += sys_defs[k].cap;
	}
	h->nfig = n_sys_figures;
	h->figs = xcalloc(base * h->nfig, sizeof(float));
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
	free(h->figs);
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
	n += h->nprocs *
	     (sizeof(struct hproc) + h->proc_slots * (size_t)h->nhcol * sizeof(uint32_t));
	return n;
}

static void record_sys(struct history *h, const struct model *m, double mono, double wall)
{
	double v[h->nfig];

	for (size_t f = 0; f < h->nfig; f++)
		v[f] = sys_figure_valid(&sys_figures[f], m) ? sys_figures[f].get(m) : NAN;
	for (size_t k = 0; k < SYS_TIERS; k++) {
		struct tier *t = &h->sys[k];
		bool fresh;
		size_t slot = tier_push(t, mono, wall, &fresh);
		float *row = h->figs + slot * h->nfig;
		unsigned cnt = t->count[slot - t->base];
		for (size_t f = 0; f < h->nfig; f++) {
			enum sf_unit u = sys_figures[f].unit;
			bool mean = u == SF_RATE || u == SF_NS_RATE || u == SF_MS;
			if (fresh || !mean || isnan(row[f]) || isnan(v[f]))
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
		if (!(p->valid & COL_BIT(c)))
			out[i] = NO_VALUE;
		else if (columns[c].kind == KIND_RATE) /* the counter's low bits */
			out[i] = (uint32_t)p->v[c];
		else
			out[i] = p->v[c] >= NO_VALUE ? NO_VALUE - 1 : (uint32_t)p->v[c];
	}
}

static struct hproc *hproc_new(const struct history *h, const struct proc_sample *p, double mono)
{
	struct hproc *r = xcalloc(1, sizeof(*r));

	r->pid = p->pid;
	r->start_ticks = p->start_ticks;
	r->first = mono;
	r->first_rss = r->first_swap = NO_VALUE;
	r->v = xmalloc(h->proc_slots * (size_t)h->nhcol * sizeof(uint32_t));
	memset(r->v, 0xff, h->proc_slots * (size_t)h->nhcol * sizeof(uint32_t));
	return r;
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

void history_record(struct history *h, const struct model *m)
{
	const struct snapshot *s = model_current(m);
	size_t slots[PROC_TIERS];
	bool fresh;

	if (!s)
		return;
	record_sys(h, m, s->mono, s->wall);
	for (size_t k = 0; k < PROC_TIERS; k++)
		slots[k] = tier_push(&h->proc[k], s->mono, s->wall, &fresh);

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
					  : hproc_new(h, p, s->mono);
		q->last = s->mono;
		memcpy(q->comm, p->comm, sizeof(q->comm));
		proc_values(h, p, vals);
		if (q->first == s->mono) {
			q->first_rss = vals[h->hcol[COL_RSS]];
			q->first_swap = vals[h->hcol[COL_SWAP]];
		}
		for (size_t k = 0; k < PROC_TIERS; k++)
			memcpy(q->v + slots[k] * (size_t)h->nhcol, vals,
			       (size_t)h->nhcol * sizeof(uint32_t));
		h->cur[i] = q;
		h->next[n++] = q;
	}
	while (j < h->nprocs)
		n += keep_gone(h->procs[j++], s->mono, h->next + n);
	/* a process gone and one new with the same pid: both kept, the gone one first */
	struct hproc **old = h->procs;
	size_t old_cap = h->cap;
	h->procs = h->next;
	h->cap = h->next_cap;
	h->nprocs = n;
	h->next = old;
	h->next_cap = old_cap;
}

double history_oldest(const struct history *h)
{
	const struct tier *t = &h->sys[SYS_TIERS - 1];
	return t->n ? tier_time(t, 0) : 0;
}

double history_newest(const struct history *h)
{
	const struct tier *t = &h->sys[0];
	return t->n ? tier_time(t, t->n - 1) : 0;
}

double history_wall_at(const struct history *h, double time)
{
	const struct tier *t = tier_for(h->sys, SYS_TIERS, time);
	long i = tier_at_or_before(t, time);
	return i < 0 ? 0 : t->wall[(t->head + (size_t)i) % t->cap];
}

size_t history_sys_series(const struct history *h, size_t f, double t0, double t1, double *out,
			  size_t n)
{
	size_t got = 0;

	for (size_t i = 0; i < n; i++) {
		double time = n > 1 ? t0 + (t1 - t0) * (double)i / (double)(n - 1) : t1;
		const struct tier *t = tier_for(h->sys, SYS_TIERS, time);
		long k = f < h->nfig ? tier_at_or_before(t, time) : -1;
		out[i] = k < 0 ? NAN : h->figs[slot_of(t, (size_t)k) * h->nfig + f];
		got += !isnan(out[i]);
	}
	return got;
}

static const struct hproc *find(const struct history *h, int32_t pid, uint64_t start)
{
	size_t lo = 0, hi = h->nprocs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (h->procs[mid]->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < h->nprocs && h->procs[lo]->pid == pid; lo++)
		if (h->procs[lo]->start_ticks == start)
			return h->procs[lo];
	return NULL;
}

/* Column i (of the history's) of q in the sample at or before time: its slot's value and
 * time; false where it has none */
static bool proc_at(const struct history *h, const struct hproc *q, int i, double time, uint32_t *v,
		    double *at)
{
	if (time > q->last)
		time = q->last;
	const struct tier *t = tier_for(h->proc, PROC_TIERS, time);
	long k = tier_at_or_before(t, time);
	if (k < 0 || tier_time(t, (size_t)k) < q->first)
		return false;
	*v = q->v[slot_of(t, (size_t)k) * (size_t)h->nhcol + (size_t)i];
	*at = tier_time(t, (size_t)k);
	return *v != NO_VALUE;
}

size_t history_proc_series(const struct history *h, int32_t pid, uint64_t start_ticks, int c,
			   double t0, double t1, double *out, size_t n)
{
	const struct hproc *q = find(h, pid, start_ticks);
	int i = c >= 0 && c < COL_COUNT ? h->hcol[c] : -1;
	double scale = i >= 0 && columns[c].scale ? columns[c].scale : 1;
	size_t got = 0;

	for (size_t k = 0; k < n; k++) {
		double time = n > 1 ? t0 + (t1 - t0) * (double)k / (double)(n - 1) : t1;
		uint32_t v, pv;
		double at, pat;
		out[k] = NAN;
		if (!q || i < 0 || time < q->first || time > q->last + 0.001 ||
		    !proc_at(h, q, i, time, &v, &at))
			continue;
		if (columns[c].kind != KIND_RATE) {
			out[k] = v;
		} else if (proc_at(h, q, i, at - 0.001, &pv, &pat) && at > pat) {
			out[k] = (double)(uint32_t)(v - pv) * scale / (at - pat);
		} else {
			continue;
		}
		got++;
	}
	return got;
}

/* RSS + swap in the sample at or before time (swap where both ends have it: use_swap) */
static bool size_at(const struct history *h, const struct hproc *q, double time, bool use_swap,
		    double *kb, double *at)
{
	uint32_t rss, swap;
	double at2;

	if (!proc_at(h, q, h->hcol[COL_RSS], time, &rss, at))
		return false;
	*kb = rss;
	if (use_swap && proc_at(h, q, h->hcol[COL_SWAP], *at, &swap, &at2))
		*kb += swap;
	return true;
}

/* The time of q's sample nearest to time, among each tier's sample at or before it
 * and its first one after it, since q was first seen */
static double from_time(const struct history *h, const struct hproc *q, double time)
{
	double best = q->last;

	for (size_t k = 0; k < PROC_TIERS; k++) {
		const struct tier *t = &h->proc[k];
		long i = tier_at_or_before(t, time);
		if (i >= 0 && tier_time(t, (size_t)i) >= q->first) {
			double c = tier_time(t, (size_t)i);
			if (fabs(c - time) < fabs(best - time))
				best = c;
			continue;
		}
		for (size_t j = i < 0 ? 0 : (size_t)i + 1; j < t->n; j++) {
			double c = tier_time(t, j);
			if (c < q->first)
				continue;
			if (fabs(c - time) < fabs(best - time))
				best = c;
			break;
		}
	}
	return best;
}

/* Steady growth over the last ten minutes: the size at each minute of them, none of the
 * ten steps down by more than 1 %, eight of them up, and 1 MiB more at the end */
static bool steady(const struct history *h, const struct hproc *q, double now, bool use_swap)
{
	double kb[11], at;
	int up = 0;

	for (int k = 0; k <= 10; k++) {
		if (!size_at(h, q, now - 600 + 60 * k, use_swap, &kb[k], &at))
			return false;
		if (k && kb[k] < kb[k - 1] * 0.99)
			return false;
		up += k && kb[k] > kb[k - 1];
	}
	return up >= 8 && kb[10] - kb[0] >= 1024;
}

bool history_growth(const struct history *h, int32_t pid, uint64_t start_ticks, double at_most,
		    double span, double *kb_per_min, bool *leak)
{
	const struct hproc *q = find(h, pid, start_ticks);
	uint32_t sw;
	double at, then_at, now_kb, then_kb;

	if (leak)
		*leak = false;
	if (!q)
		return false;
	double now = at_most < q->last ? at_most : q->last;
	bool use_swap = proc_at(h, q, h->hcol[COL_SWAP], now, &sw, &at);
	if (!size_at(h, q, now, use_swap, &now_kb, &at))
		return false;
	double from = from_time(h, q, at - span);
	if (!size_at(h, q, from, use_swap, &then_kb, &then_at) || at - then_at <= 0)
		return false;
	*kb_per_min = (now_kb - then_kb) * 60.0 / (at - then_at);
	if (leak && *kb_per_min > 0 && at - q->first >= 600)
		*leak = steady(h, q, at, use_swap);
	return true;
}

/* The slot at or before span seconds before the newest sample, the same for every
 * process: looked up once a refresh */
static const struct memo *memo_of(struct history *h, double span)
{
	const struct tier *t0 = &h->proc[0];
	double newest = t0->n ? tier_time(t0, t0->n - 1) : 0;
	struct memo *m = NULL;

	for (size_t i = 0; i < 4 && !m; i++)
		if (h->memo[i].span == span || h->memo[i].span == 0 || i == 3)
			m = &h->memo[i];
	if (m->span == span && m->newest == newest)
		return m;
	const struct tier *t = tier_for(h->proc, PROC_TIERS, newest - span);
	long k = tier_at_or_before(t, newest - span);
	*m = (struct memo){.span = span, .newest = newest, .found = k >= 0};
	if (k >= 0) {
		m->slot = slot_of(t, (size_t)k);
		m->at = tier_time(t, (size_t)k);
	}
	return m;
}

static double size_in(const struct history *h, const struct hproc *q, size_t slot, bool use_swap)
{
	const uint32_t *v = q->v + slot * (size_t)h->nhcol;
	uint32_t sw = v[h->hcol[COL_SWAP]];

	return (double)v[h->hcol[COL_RSS]] + (use_swap && sw != NO_VALUE ? sw : 0);
}

bool history_growth_of(struct history *h, size_t i, double span, double *kb_per_min, bool *leak)
{
	const struct tier *t0 = &h->proc[0];

	if (leak)
		*leak = false;
	if (i >= h->ncur || !t0->n)
		return false;
	const struct hproc *q = h->cur[i];
	const struct memo *m = memo_of(h, span);
	size_t now = slot_of(t0, t0->n - 1);
	const uint32_t *v = q->v + now * (size_t)h->nhcol;
	if (v[h->hcol[COL_RSS]] == NO_VALUE)
		return false;
	bool use_swap = v[h->hcol[COL_SWAP]] != NO_VALUE;
	double at = tier_time(t0, t0->n - 1), then_kb, then_at;
	if (m->found && m->at >= q->first) {
		const uint32_t *w = q->v + m->slot * (size_t)h->nhcol;
		if (w[h->hcol[COL_RSS]] == NO_VALUE)
			return false;
		use_swap &= w[h->hcol[COL_SWAP]] != NO_VALUE; /* swap where both ends have it */
		then_kb = size_in(h, q, m->slot, use_swap);
		then_at = m->at;
	} else { /* seen for less than span: since it was first seen */
		if (q->first_rss == NO_VALUE)
			return false;
		use_swap &= q->first_swap != NO_VALUE;
		then_kb = (double)q->first_rss + (use_swap ? q->first_swap : 0);
		then_at = q->first;
	}
	if (at <= then_at)
		return false;
	*kb_per_min = (size_in(h, q, now, use_swap) - then_kb) * 60.0 / (at - then_at);
	if (leak && *kb_per_min > 0 && at - q->first >= 600)
		*leak = steady(h, q, at, use_swap);
	return true;
}

double history_procs_at(const struct history *h, double time,
			void (*fn)(void *arg, const struct history_proc *p), void *arg)
{
	const struct tier *t = tier_for(h->proc, PROC_TIERS, time);
	long k = tier_at_or_before(t, time);

	if (k < 0)
		return 0;
	double at = tier_time(t, (size_t)k);
	size_t slot = slot_of(t, (size_t)k);
	for (size_t i = 0; i < h->nprocs; i++) {
		const struct hproc *q = h->procs[i];
		const uint32_t *v = q->v + slot * (size_t)h->nhcol;
		if (at < q->first || at > q->last || v[h->hcol[COL_RSS]] == NO_VALUE)
			continue;
		uint32_t sw = v[h->hcol[COL_SWAP]];
		struct history_proc p = {q->pid, q->start_ticks, q->comm, v[h->hcol[COL_RSS]],
					 sw == NO_VALUE ? 0 : sw};
		fn(arg, &p);
	}
	return at;
}

double history_slope(const double *t, const double *v, size_t n, double min_span, bool *ok)
{
	double st = 0, sv = 0, stt = 0, stv = 0;
	size_t k = 0;
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		st += t[i];
		sv += v[i];
		k++;
		lo = t[i] < lo ? t[i] : lo;
		hi = t[i] > hi ? t[i] : hi;
	}
	*ok = k >= 3 && hi - lo >= min_span;
	if (!*ok)
		return 0;
	double mt = st / (double)k, mv = sv / (double)k;
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		stt += (t[i] - mt) * (t[i] - mt);
		stv += (t[i] - mt) * (v[i] - mv);
	}
	return stt > 0 ? stv / stt : 0;
}

static long figure_index(const char *json)
{
	for (size_t f = 0; f < n_sys_figures; f++)
		if (!strcmp(sys_figures[f].json, json))
			return (long)f;
	return -1;
}

/* The samples of the finest tier over the last window seconds: avail + swap free */
static size_t avail_points(const struct history *h, double window, double *t, double *v, size_t max)
{
	static long fa = -2, fs = -2;
	const struct tier *tier = &h->sys[0];
	size_t n = 0;

	if (fa == -2) {
		fa = figure_index("mem_available_kb");
		fs = figure_index("swap_free_kb");
	}
	if (fa < 0 || !tier->n)
		return 0;
	double newest = tier_time(tier, tier->n - 1);
	for (size_t i = tier->n; i-- > 0 && n < max;) {
		double time = tier_time(tier, i);
		if (time < newest - window)
			break;
		const float *row = h->figs + slot_of(tier, i) * h->nfig;
		t[n] = time - newest;
		v[n] = (double)row[fa] + (fs >= 0 && !isnan(row[fs]) ? (double)row[fs] : 0);
		n++;
	}
	return n;
}

double history_exhaustion(const struct history *h, double window, double *rate_kb_s)
{
	double t[900], v[900];
	bool ok, ok_now;
	size_t n = avail_points(h, window, t, v, 900);

	*rate_kb_s = 0;
	if (!n)
		return -1;
	double rate = history_slope(t, v, n, window / 3, &ok);
	/* still shrinking now: over the last third of the window */
	size_t recent = 0;
	while (recent < n && t[recent] >= -window / 3)
		recent++;
	double now_rate = history_slope(t, v, recent, window / 6, &ok_now);
	if (!ok)
		return -1;
	*rate_kb_s = rate;
	/* and over the last third too, fast enough to run out within the hour: a flat line's
	 * noise after a fall does not keep the forecast */
	if (rate >= 0 || (ok_now && (now_rate >= 0 || v[0] / -now_rate >= 3600)))
		return -1;
	return v[0] / -rate;
}
