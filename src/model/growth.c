/* The model's figures over time: each refresh recorded into its history (history.h),
 * and from it the growth columns and leak suspects, the forecast of memory's exhaustion
 * and the next OOM victim, and what the history saw before each OOM kill (its cgroup's
 * part in oom_cgroup.c). */
#include "growth.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "history.h"
#include "oom_cgroup.h"
#include "sysfig.h"

static void model_growth(struct model *m)
{
	struct snapshot *s = model_current_mut(m);

	for (size_t i = 0; s && i < m->nall; i++) {
		struct row *r = &m->all[i];
		struct proc_sample *p = &s->procs[i]; /* r->p, which the model may mark */
		r->leak = false;
		for (int c = 0; c < COL_COUNT; c++) {
			double kb;
			bool leak = false;
			if (columns[c].kind != KIND_GROWTH)
				continue;
			p->valid &= ~COL_BIT(c);
			row_set(r, c, 0);
			if (!history_growth_of(m->hist, i, columns[c].span, &kb,
					       columns[c].span >= 600 ? &leak : NULL))
				continue;
			row_set(r, c, kb);
			p->valid |= COL_BIT(c);
			r->leak |= leak;
		}
	}
}

/* The processes of the refresh before a kill, into the post-mortem's two top tens */
struct collect {
	const struct model *m;
	double at;
	struct oom_before *b;
	int32_t victim;
	uint64_t victim_start;
	bool found;
};

static void insert(struct oom_top *top, size_t *n, const struct oom_top *t, bool by_growth)
{
	size_t i = *n;
	while (i > 0 && (by_growth ? !(top[i - 1].growth_kb_per_min >= t->growth_kb_per_min)
				   : top[i - 1].rss_kb < t->rss_kb))
		i--;
	if (i >= OOM_BEFORE_TOP)
		return;
	size_t last = *n < OOM_BEFORE_TOP ? *n : OOM_BEFORE_TOP - 1;
	memmove(top + i + 1, top + i, (last - i) * sizeof(*top));
	top[i] = *t;
	if (*n < OOM_BEFORE_TOP)
		(*n)++;
}

static void collect_one(void *arg, const struct history_proc *p)
{
	struct collect *c = arg;
	struct oom_top t = {.pid = p->pid, .rss_kb = p->rss_kb};
	double kb;

	snprintf(t.comm, sizeof(t.comm), "%s", p->comm);
	t.growth_kb_per_min =
		history_growth(c->m->hist, p->pid, p->start_ticks, c->at, 60, &kb, NULL) ? kb : NAN;
	insert(c->b->top, &c->b->ntop, &t, false);
	if (!isnan(t.growth_kb_per_min))
		insert(c->b->grow, &c->b->ngrow, &t, true);
	if (p->pid == c->victim) {
		c->victim_start = p->start_ticks;
		c->found = true;
	}
}

static uint64_t figure_at(const struct model *m, enum sf_id f, double at)
{
	double v = NAN;
	history_sys_series(m->hist, f, at, at, &v, 1);
	return isnan(v) || v < 0 ? 0 : (uint64_t)v;
}

/* The victim's short name, from the newest refresh that saw it by its name */
static void victim_name(const struct model *m, const struct mt_event *e, struct oom_before *b)
{
	const struct snapshot *in[2] = {model_current(m), model_previous(m)};

	for (int i = 0; i < 2; i++) {
		const struct proc_sample *p = in[i] ? snapshot_find(in[i], 0, e->pid) : NULL;
		if (p && p->cmd && !strncmp(p->comm, e->comm, MT_COMM_LEN)) {
			proc_short_name(p->comm, p->cmd, b->victim_name, sizeof(b->victim_name));
			return;
		}
	}
}

static void model_oom_before(const struct model *m, const struct mt_event *e, struct oom_before *b)
{
	const struct snapshot *s = model_current(m);

	oom_before_clear(b);
	victim_name(m, e, b);
	for (size_t i = 0; i < OOM_BEFORE_CURVE; i++)
		b->victim_rss_kb[i] = NAN;
	if (e->earlier || !s)
		return;
	/* the kill's time on the monotonic clock; the refresh before it */
	double kill = s->mono - (s->wall - e->ts);
	struct collect c = {.m = m, .b = b, .victim = e->pid};
	c.at = kill - 1e-3;
	double at = history_procs_at(m->hist, c.at, collect_one, &c);
	if (at <= 0)
		return;
	b->valid = true;
	b->mono = at;
	b->wall = history_wall_at(m->hist, at);
	b->since = kill - at;
	b->mem_available_kb = figure_at(m, SF_MEM_AVAILABLE, at);
	b->swap_free_kb = figure_at(m, SF_SWAP_FREE, at);
	b->swap_total_kb = figure_at(m, SF_SWAP_TOTAL, at);
	b->cg = oom_cgroup_of(m, e, at, kill);
	if (c.found) {
		double v[OOM_BEFORE_CURVE];
		history_proc_series(m->hist, e->pid, c.victim_start, COL_RSS,
				    at - (OOM_BEFORE_CURVE - 1), at, v, OOM_BEFORE_CURVE);
		for (size_t i = 0; i < OOM_BEFORE_CURVE; i++)
			b->victim_rss_kb[i] = (float)v[i];
	}
}

/* The system figures' values now, and which are averaged when thinned */
static void figures_now(const struct model *m, double *v)
{
	for (size_t f = 0; f < n_sys_figures; f++)
		v[f] = sys_figure_valid(&sys_figures[f], m) ? sys_figures[f].get(m) : NAN;
}

static struct history *history_of(struct model *m)
{
	if (!m->hist) {
		bool mean[n_sys_figures];
		for (size_t f = 0; f < n_sys_figures; f++) {
			enum sf_unit u = sys_figures[f].unit;
			mean[f] = u == SF_RATE || u == SF_NS_RATE || u == SF_MS;
		}
		m->hist = history_new(n_sys_figures, mean);
	}
	return m->hist;
}

void growth_step(struct model *m, uint64_t seen)
{
	const struct snapshot *s = model_current(m);
	double figs[n_sys_figures];
	figures_now(m, figs);
	history_record(history_of(m), s, figs);
	model_growth(m);
	/* the kills of this refresh, the newest of oom: what was seen before each */
	size_t fresh = (size_t)(m->oom_seen - seen);
	for (size_t k = fresh < m->noom ? m->noom - fresh : 0; k < m->noom; k++)
		model_oom_before(m, &m->oom[k], &m->before[k]);
	forecast_step(&m->fc, model_current_mut(m), m->hist);
}
