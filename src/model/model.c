#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "order.h"
#include "tree.h"
#include "util.h"

void model_init(struct model *m, const struct prefs *prefs)
{
	memset(m, 0, sizeof(*m));
	snapshot_init(&m->snap[0]);
	snapshot_init(&m->snap[1]);
	m->prefs = prefs;
	forecast_init(&m->fc);
}

unsigned model_wanted(const struct model *m)
{
	/* a cgroup filter needs every process's cgroup as it is now */
	unsigned cgroups = m->prefs->filter.cgroup[0] ? COL_BIT(COL_CGROUP) | COL_ALL_CGROUPS : 0;

	return columns_read_with(m->prefs->cols | COL_BIT(m->prefs->sort)) | cgroups;
}

void oom_before_clear(struct oom_before *b)
{
	free(b->cg);
	memset(b, 0, sizeof(*b));
}

void model_free(struct model *m)
{
	snapshot_free(&m->snap[0]);
	snapshot_free(&m->snap[1]);
	free(m->rows);
	free(m->all);
	free(m->order);
	free(m->order_tmp);
	history_free(m->hist);
	forecast_free(&m->fc);
	for (size_t i = 0; i < m->noom; i++)
		oom_before_clear(&m->before[i]);
	exited_free(&m->exited);
	slabmodel_free(&m->slab);
	memset(m, 0, sizeof(*m));
}

struct snapshot *model_begin(struct model *m)
{
	int next = m->nsnaps ? 1 - m->cur : 0;
	struct snapshot *s = &m->snap[next];
	const struct snapshot *now = model_current(m);
	/* after a spike of processes, the room of one is let go */
	if (now && s->procs_cap > 2 * now->nprocs + 1024) {
		free(s->procs);
		s->procs = NULL;
		s->procs_cap = 0;
	}
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
 * On first sight (q NULL), over the process's life (first, its first_span); a counter
 * that starts with memtop (BPF) over the interval, or on the first refresh over the
 * process's life. */
static double rate_value(const struct span *sp, const struct proc_sample *p,
			 const struct proc_sample *q, int c, double first)
{
	const struct column *col = &columns[c];
	double scale = col->scale ? col->scale : 1;
	double dt = col->needs & NEED_BPF ? sp->dt : sp->dt_procs;

	if (!(p->valid & COL_BIT(c)))
		return 0;
	if (q)
		return q->valid & COL_BIT(c)
			       ? counter_rate(PROC_FIG(p, c), PROC_FIG(q, c), dt) * scale
			       : 0;
	if (col->since_start && sp->prev)
		return (double)PROC_FIG(p, c) * scale / dt;
	return (double)PROC_FIG(p, c) * scale / first;
}

/* A share of RAM; 0 for the other computed columns */
static double sample_value(const struct span *sp, const struct proc_sample *p, int c)
{
	const struct column *col = &columns[c];
	uint64_t total = sp->s->mem[MI_MEM_TOTAL];

	if (col->kind == KIND_SHARE)
		return total ? 100.0 * (double)PROC_FIG(p, col->of) / (double)total : 0;
	return 0;
}

/* A row's values: q is the process in the refresh before, or NULL */
static void row_values(struct row *r, const struct span *sp, const struct proc_sample *p,
		       const struct proc_sample *q)
{
	double first = q ? 0 : first_span(sp, p);

	r->p = p;
	r->depth = 0;
	r->last = false;
	r->more = 0;
	for (int c = 0; c < COL_COUNT; c++) {
		const struct column *col = &columns[c];
		if (col->kind == KIND_RATE)
			row_set(r, c, rate_value(sp, p, q, c, first));
		else if (col_slot[c] >= 0)
			row_set(r, c, sample_value(sp, p, c));
	}
	r->rate_since = !q && (!sp->prev || first < sp->dt_procs) ? first : 0;
}

static void compute_rates(struct model *m)
{
	const struct snapshot *s = model_current(m), *prev = model_previous(m);
	double dt = prev ? s->mono - prev->mono : s->uptime;
	double dt_procs = prev ? s->mono_procs - prev->mono_procs : s->uptime;
	m->rates.dt = dt;
	m->rates.dt_procs = dt_procs;
	for (int v = 0; v < VS_COUNT; v++)
		m->rates.vm[v] = counter_rate(s->vm[v], prev ? prev->vm[v] : 0, dt);
	reclaim_delta(&m->rates.reclaim, &s->bpf.reclaim, prev ? &prev->bpf.reclaim : NULL);

	/* room to grow, not a new array for each process more; after a spike, a smaller one */
	if (m->all_cap < s->nprocs || m->all_cap > 2 * s->nprocs + 1024) {
		m->all_cap = s->nprocs + s->nprocs / 4;
		free(m->all);
		m->all = xmalloc(m->all_cap * sizeof(*m->all));
	}
	m->nall = s->nprocs;
	struct span sp = {s, prev != NULL, dt, dt_procs};
	/* both snapshots are in pid order: each process's earlier sample is found walking
	 * them side by side; the same process if it started at the same time */
	size_t j = 0, nprev = prev ? prev->nprocs : 0;
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_sample *p = &s->procs[i], *q = NULL;
		while (j < nprev && prev->procs[j].pid < p->pid)
			j++;
		if (j < nprev && prev->procs[j].pid == p->pid &&
		    prev->procs[j].start_ticks == p->start_ticks)
			q = &prev->procs[j];
		row_values(&m->all[i], &sp, p, q);
	}
	/* a process's swap-ins (BPF) are read just after the machine's (vmstat): while the
	 * storm rises its count spans a later interval, and may pass the whole; no process's
	 * share of the machine's rate is above it (on the first refresh, each over its own
	 * span since a start) */
	if (!vmstat_present(s, VS_PSWPIN))
		return;
	for (size_t i = 0; i < m->nall; i++)
		if (row_number(&m->all[i], COL_SWAPIN) > m->rates.vm[VS_PSWPIN])
			row_set(&m->all[i], COL_SWAPIN, m->rates.vm[VS_PSWPIN]);
}

/* The figures made of others (columns_derive), for every process of s */
static void derive(struct snapshot *s)
{
	for (size_t i = 0; i < s->nprocs; i++)
		columns_derive(&s->procs[i]);
}

void model_late_values(struct model *m)
{
	const struct snapshot *s = model_current(m);
	struct span sp = {s, model_previous(m) != NULL, m->rates.dt, m->rates.dt_procs};

	if (s)
		derive(&m->snap[m->cur]);
	/* rows point into all */
	for (size_t i = 0; s && i < m->nall; i++)
		for (int c = 0; c < COL_COUNT; c++)
			if (columns[c].kind == KIND_SHARE)
				row_set(&m->all[i], c, sample_value(&sp, m->all[i].p, c));
}

static bool contains_nocase(const char *hay, const char *needle)
{
	return hay && strcasestr(hay, needle) != NULL;
}

/* Whether cgroup path lies in cgroup dir or below it */
static bool cgroup_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!path)
		return false;
	if (n == 1 && dir[0] == '/')
		return true;
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/');
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
	    !contains_nocase(r->p->cmd, f->text) && !contains_nocase(r->p->cgroup, f->text))
		return false;
	if (f->cgroup[0] && !cgroup_under(r->p->cgroup, f->cgroup))
		return false;
	return true;
}

void model_refilter(struct model *m)
{
	enum col_id col = m->prefs->sort;
	int sign = columns[col].ascending ? 1 : -1;
	bool text = columns[col].unit == UNIT_TEXT;

	if (m->prefs->invert)
		sign = -sign;
	if (m->rows_cap < m->nall || m->rows_cap > m->all_cap) {
		m->rows_cap = m->all_cap;
		free(m->rows);
		m->rows = xmalloc(m->rows_cap * sizeof(*m->rows));
	}
	if (m->order_cap < m->nall || m->order_cap > m->all_cap) {
		m->order_cap = m->all_cap;
		m->order = xrealloc(m->order, m->order_cap * sizeof(*m->order));
		m->order_tmp = xrealloc(m->order_tmp, m->order_cap * sizeof(*m->order_tmp));
	}
	size_t n = 0;
	for (size_t i = 0; i < m->nall; i++) {
		const struct row *r = &m->all[i];
		struct sort_item *it = &m->order[n];
		if (!row_passes(&m->prefs->filter, r))
			continue;
		if (text) {
			const char *t = row_text(r, col);
			it->text = t ? t : "";
		} else {
			it->key = order_key(row_number(r, col), sign);
		}
		it->tie = r->p->pid;
		it->i = (uint32_t)i;
		n++;
	}
	const struct sort_item *sorted =
		n ? order_sort(m->order, m->order_tmp, n, text ? sign : 0) : NULL;
	for (size_t k = 0; k < n; k++) {
		struct row *r = &m->all[sorted[k].i];

		r->depth = 0; /* the tree's place, set below when it is on */
		r->last = false;
		r->folded = false;
		r->more = 0;
		m->rows[k] = r;
	}
	m->nrows = n;
	if (m->prefs->tree)
		m->nrows = tree_order(m->rows, m->nrows, m->prefs->folds, m->prefs->nfolds);
}

/* A kill whose report lost its memcg line (the kernel rate-limits an OOM report's header
 * and summary, and the "Killed process" line has no memcg) gets the victim's memory cgroup
 * as the refresh before saw it, when that was the same process (its pid and name); it
 * stays unknown (empty) for a process memtop never saw and for kills from before it */
static void memcg_from_last_sighting(struct snapshot *s, const struct snapshot *prev)
{
	for (size_t i = 0; prev && i < s->nevents; i++) {
		struct mt_event *e = &s->events[i];
		if (e->type != MT_EV_OOM_KILL || e->memcg[0] || e->earlier)
			continue;
		const struct proc_sample *p = snapshot_find(prev, 0, e->pid);
		if (p && p->cgroup && p->cgroup[0] && !strncmp(p->comm, e->comm, sizeof(p->comm)))
			snprintf(e->memcg, sizeof(e->memcg), "%s", p->cgroup);
	}
}

static void keep_events(struct model *m)
{
	const struct snapshot *s = model_current(m);
	for (size_t i = 0; i < s->nevents; i++) {
		if (s->events[i].type != MT_EV_OOM_KILL)
			continue;
		if (m->noom == MODEL_OOM_HISTORY) {
			oom_before_clear(&m->before[0]);
			memmove(m->oom, m->oom + 1, (MODEL_OOM_HISTORY - 1) * sizeof(*m->oom));
			memmove(m->before, m->before + 1,
				(MODEL_OOM_HISTORY - 1) * sizeof(*m->before));
			m->noom--;
		}
		memset(&m->before[m->noom], 0, sizeof(m->before[0])); /* filled by model_step */
		m->oom[m->noom++] = s->events[i];
		m->oom_seen++;
		if (!s->events[i].earlier)
			m->oom_live++;
	}
}

void model_rates(struct model *m)
{
	if (m->nsnaps == 0) {
		m->cur = 0;
		m->nsnaps = 1;
	} else {
		m->cur = 1 - m->cur;
		m->nsnaps = 2;
	}
	derive(&m->snap[m->cur]);
	compute_rates(m);
	exited_update(&m->exited, model_current(m), model_previous(m));
	memcg_from_last_sighting(&m->snap[m->cur], model_previous(m));
	keep_events(m);
}

void model_update(struct model *m)
{
	model_rates(m);
	model_refilter(m);
}

void mem_split(const uint64_t mem[MI_COUNT], struct mem_split *o)
{
	o->buffers_kb = mem[MI_BUFFERS];
	o->cache_kb = mem[MI_CACHED] + mem[MI_SRECLAIMABLE];
	o->free_kb = mem[MI_MEM_FREE];
	uint64_t rest = o->free_kb + o->buffers_kb + o->cache_kb;
	o->used_kb = mem[MI_MEM_TOTAL] > rest ? mem[MI_MEM_TOTAL] - rest : 0;
	o->swap_used_kb = mem[MI_SWAP_TOTAL] - mem[MI_SWAP_FREE];
}
