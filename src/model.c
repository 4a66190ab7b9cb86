#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "tree.h"
#include "util.h"

void model_init(struct model *m, const struct prefs *prefs)
{
	memset(m, 0, sizeof(*m));
	snapshot_init(&m->snap[0]);
	snapshot_init(&m->snap[1]);
	m->prefs = prefs;
}

unsigned model_wanted(const struct model *m)
{
	return m->prefs->cols | COL_BIT(m->prefs->sort);
}

void model_free(struct model *m)
{
	snapshot_free(&m->snap[0]);
	snapshot_free(&m->snap[1]);
	free(m->rows);
	free(m->all);
	memset(m, 0, sizeof(*m));
}

struct snapshot *model_begin(struct model *m)
{
	int next = m->nsnaps ? 1 - m->cur : 0;
	struct snapshot *s = &m->snap[next];
	snapshot_reuse(s);
	return s;
}

const struct snapshot *model_current(const struct model *m)
{
	return m->nsnaps ? &m->snap[m->cur] : NULL;
}

struct snapshot *model_current_mut(struct model *m)
{
	return m->nsnaps ? &m->snap[m->cur] : NULL;
}

const struct snapshot *model_previous(const struct model *m)
{
	return m->nsnaps > 1 ? &m->snap[1 - m->cur] : NULL;
}

double counter_rate(uint64_t now, uint64_t then, double dt)
{
	if (dt <= 0 || now < then)
		return 0;
	return (double)(now - then) / dt;
}

static const struct proc_sample *find_prev(const struct snapshot *prev, const struct proc_sample *p)
{
	const struct proc_sample *q = prev ? snapshot_find(prev, 0, p->pid) : NULL;
	return q && q->start_ticks == p->start_ticks ? q : NULL;
}

static void hist_delta(struct mt_hist *d, const struct mt_hist *now, const struct mt_hist *then)
{
	*d = *now;
	if (!then)
		return;
	d->count -= then->count;
	d->total_us -= then->total_us;
	for (int i = 0; i < MT_HIST_SLOTS; i++)
		d->slots[i] -= then->slots[i];
}

static void reclaim_delta(struct reclaim_stats *d, const struct reclaim_stats *now,
			  const struct reclaim_stats *then)
{
	hist_delta(&d->direct, &now->direct, then ? &then->direct : NULL);
	hist_delta(&d->memcg, &now->memcg, then ? &then->memcg : NULL);
	hist_delta(&d->shrink_slab, &now->shrink_slab, then ? &then->shrink_slab : NULL);
	d->nr_reclaimed = now->nr_reclaimed - (then ? then->nr_reclaimed : 0);
	d->kswapd_wakeups = now->kswapd_wakeups - (then ? then->kswapd_wakeups : 0);
}

/* What a row's values are computed against: this refresh, and whether there was one
 * before it (then dt is the interval; else the time since boot). */
struct span {
	const struct snapshot *s;
	bool prev;
	double dt;	 /* the interval of the system counters and the BPF maps */
	double dt_procs; /* the interval of the processes' /proc counters */
};

/* The seconds a process's /proc counters span when it is seen the first time: its life so
 * far, as top does, or the interval where it lived longer unseen (filtered out) */
static double first_span(const struct span *sp, const struct proc_sample *p)
{
	const struct snapshot *s = sp->s;
	double age = s->hertz ? s->uptime - (double)p->start_ticks / (double)s->hertz : 0;

	if (sp->prev && age > sp->dt_procs)
		age = sp->dt_procs;
	return age < 0.01 ? 0.01 : age;
}

/* A counter's rate over its own interval: the BPF maps' (read with vmstat) or the walk's.
 * On first sight, over the process's life (first_span); a counter that starts with
 * memtop (BPF) over the interval, or on the first refresh over the process's life. */
static double rate_value(const struct span *sp, const struct proc_sample *p,
			 const struct proc_sample *q, int c)
{
	const struct column *col = &columns[c];
	double scale = col->scale ? col->scale : 1;
	double dt = col->needs & NEED_BPF ? sp->dt : sp->dt_procs;

	if (!(p->valid & COL_BIT(c)))
		return 0;
	if (q)
		return q->valid & COL_BIT(c) ? counter_rate(p->v[c], q->v[c], dt) * scale : 0;
	if (col->since_start && sp->prev)
		return (double)p->v[c] * scale / dt;
	return (double)p->v[c] * scale / first_span(sp, p);
}

static double column_value(const struct span *sp, const struct proc_sample *p,
			   const struct proc_sample *q, int c)
{
	const struct column *col = &columns[c];
	uint64_t total = sp->s->mem.mem_total_kb;

	switch (col->kind) {
	case KIND_SAMPLE:
		return (double)(col->id ? col->id(p) : p->v[c]);
	case KIND_RATE:
		return rate_value(sp, p, q, c);
	case KIND_SHARE:
		return total ? 100.0 * (double)p->v[col->of] / (double)total : 0;
	case KIND_TEXT:
		break;
	}
	return 0;
}

static void compute_rates(struct model *m)
{
	const struct snapshot *s = model_current(m), *prev = model_previous(m);
	double dt = prev ? s->mono - prev->mono : s->uptime;
	double dt_procs = prev ? s->mono_procs - prev->mono_procs : s->uptime;
	struct sys_vm zero = {0};
	const struct sys_vm *pv = prev ? &prev->vm : &zero;
	m->rates.dt = dt;
	m->rates.dt_procs = dt_procs;
	m->rates.pgfault = counter_rate(s->vm.pgfault, pv->pgfault, dt);
	m->rates.pgmajfault = counter_rate(s->vm.pgmajfault, pv->pgmajfault, dt);
	m->rates.pswpin = counter_rate(s->vm.pswpin, pv->pswpin, dt);
	m->rates.pswpout = counter_rate(s->vm.pswpout, pv->pswpout, dt);
	reclaim_delta(&m->rates.reclaim, &s->bpf.reclaim, prev ? &prev->bpf.reclaim : NULL);

	if (m->nall < s->nprocs) {
		free(m->all);
		m->all = xcalloc(s->nprocs, sizeof(*m->all));
	}
	m->nall = s->nprocs;
	struct span sp = {s, prev != NULL, dt, dt_procs};
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_sample *p = &s->procs[i], *q = find_prev(prev, p);
		struct row *r = &m->all[i];
		memset(r, 0, sizeof(*r));
		r->p = p;
		for (int c = 0; c < COL_COUNT; c++)
			r->num[c] = column_value(&sp, p, q, c);
		if (!q && (!prev || first_span(&sp, p) < dt_procs))
			r->rate_since = first_span(&sp, p);
	}
}

void model_late_values(struct model *m)
{
	const struct snapshot *s = model_current(m);
	struct span sp = {s, model_previous(m) != NULL, m->rates.dt, m->rates.dt_procs};
	struct row *sets[] = {m->all, m->rows};
	size_t counts[] = {m->nall, m->nrows};

	for (int k = 0; s && k < 2; k++)
		for (size_t i = 0; i < counts[k]; i++)
			for (int c = 0; c < COL_COUNT; c++)
				if (columns[c].kind == KIND_SAMPLE || columns[c].kind == KIND_SHARE)
					sets[k][i].num[c] =
						column_value(&sp, sets[k][i].p, NULL, c);
}

double row_number(const struct row *r, enum col_id c)
{
	return r->num[c];
}

const char *row_text(const struct row *r, enum col_id c)
{
	return columns[c].text ? columns[c].text(r->p) : NULL;
}

bool row_valid(const struct row *r, enum col_id c)
{
	return (r->p->valid & COL_BIT(c)) != 0;
}

static bool contains_nocase(const char *hay, const char *needle)
{
	return hay && strcasestr(hay, needle) != NULL;
}

static bool row_passes(const struct model_filter *f, const struct row *r)
{
	if (f->by_user && r->p->uid != f->uid)
		return false;
	if (f->hide_kthreads && r->p->kthread)
		return false;
	if (f->npids) {
		bool found = false;
		for (size_t i = 0; i < f->npids && !found; i++)
			found = f->pids[i] == r->p->pid;
		if (!found)
			return false;
	}
	if (f->text[0] && !contains_nocase(r->p->comm, f->text) &&
	    !contains_nocase(r->p->cmd, f->text))
		return false;
	return true;
}

struct sort_key {
	enum col_id col;
	int sign; /* 1 ascending, -1 descending */
};

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct row *x = a, *y = b;
	const struct sort_key *k = arg;
	int c;
	const char *tx = row_text(x, k->col), *ty = row_text(y, k->col);
	if (columns[k->col].unit == UNIT_TEXT) {
		c = strcmp(tx ? tx : "", ty ? ty : "");
	} else {
		double vx = row_number(x, k->col), vy = row_number(y, k->col);
		c = (vx > vy) - (vx < vy);
	}
	if (c)
		return c * k->sign;
	return (x->p->pid > y->p->pid) - (x->p->pid < y->p->pid); /* ties: lower pid first */
}

void model_refilter(struct model *m)
{
	if (m->rows_cap < m->nall) {
		m->rows_cap = m->nall;
		m->rows = xrealloc(m->rows, m->rows_cap * sizeof(*m->rows));
	}
	m->nrows = 0;
	for (size_t i = 0; i < m->nall; i++)
		if (row_passes(&m->prefs->filter, &m->all[i]))
			m->rows[m->nrows++] = m->all[i];
	struct sort_key k = {m->prefs->sort, columns[m->prefs->sort].ascending ? 1 : -1};
	if (m->prefs->invert)
		k.sign = -k.sign;
	if (m->nrows) /* rows is NULL until there was a row */
		qsort_r(m->rows, m->nrows, sizeof(*m->rows), cmp_rows, &k);
	if (m->prefs->tree)
		tree_order(m->rows, m->nrows);
}

static void keep_events(struct model *m)
{
	const struct snapshot *s = model_current(m);
	for (size_t i = 0; i < s->nevents; i++) {
		if (s->events[i].type != MT_EV_OOM_KILL)
			continue;
		if (m->noom == MODEL_OOM_HISTORY) {
			memmove(m->oom, m->oom + 1, (MODEL_OOM_HISTORY - 1) * sizeof(*m->oom));
			m->noom--;
		}
		m->oom[m->noom++] = s->events[i];
		m->oom_seen++;
		if (!s->events[i].earlier)
			m->oom_live++;
	}
}

void model_update(struct model *m)
{
	if (m->nsnaps == 0) {
		m->cur = 0;
		m->nsnaps = 1;
	} else {
		m->cur = 1 - m->cur;
		m->nsnaps = 2;
	}
	compute_rates(m);
	keep_events(m);
	model_refilter(m);
}

void mem_split(const struct sys_mem *m, struct mem_split *o)
{
	o->buffers_kb = m->buffers_kb;
	o->cache_kb = m->cached_kb + m->sreclaimable_kb;
	o->free_kb = m->mem_free_kb;
	uint64_t rest = m->mem_free_kb + o->buffers_kb + o->cache_kb;
	o->used_kb = m->mem_total_kb > rest ? m->mem_total_kb - rest : 0;
	o->swap_used_kb = m->swap_total_kb - m->swap_free_kb;
}
