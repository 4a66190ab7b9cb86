/* The verdict's signals, read from the model as it stands after a refresh: the system
 * figures (sysfig.h) and the trend of Slab and Shmem (the history), the processes' growth,
 * swap-in and reclaim stall columns, the forecast, and the memory cgroups against their
 * limits. A per-cgroup forecast, where the cgroup model has one, goes into eta_s and
 * grow_kb_s of struct verdict_cgroup. */
#include "verdict.h"

#include <math.h>
#include <string.h>

#include "cgmodel.h"
#include "history.h"
#include "model.h"
#include "sysfig.h"

#define TREND_S	    60.0 /* Slab's and Shmem's growth: over the last minute */
#define TREND_MIN_S 10.0 /* and not over less than this */

static double fig(const struct model *m, enum sf_id f)
{
	return sys_figure_valid(&sys_figures[f], m) ? sys_figures[f].get(m) : NAN;
}

/* System figure f's growth a second over the last minute recorded; NAN: too short */
static double fig_growth(const struct model *m, enum sf_id f)
{
	if (!m->hist)
		return NAN;
	double t1 = history_newest(m->hist), t0 = fmax(history_oldest(m->hist), t1 - TREND_S);
	double v[2];
	if (t1 - t0 < TREND_MIN_S || history_sys_series(m->hist, f, t0, t1, v, 2) < 2)
		return NAN;
	return (v[1] - v[0]) / (t1 - t0);
}

/* The process of row r into p, its value v */
static void take(struct verdict_proc *p, const struct row *r, double v)
{
	p->pid = r->p->pid;
	p->value = v;
	p->leak = r->leak;
	memcpy(p->comm, r->p->comm, sizeof(p->comm));
	proc_short_name(r->p->comm, r->p->cmd, p->name, sizeof(p->name));
}

/* The process of row r into p when its value beats p's */
static void beat(struct verdict_proc *p, const struct row *r, enum col_id c, double scale)
{
	if (!(r->p->valid & COL_BIT(c)))
		return;
	double v = row_number(r, c) * scale;
	if (!p->pid || v > p->value)
		take(p, r, v);
}

/* Row r's process when it is too young for GROW (under GROWTH_MIN_SPAN s old, its growth
 * not known): its age and RSS + swap; false otherwise */
static bool young(const struct snapshot *s, const struct row *r, double *age, double *kb)
{
	const struct proc_sample *p = r->p;

	if ((p->valid & COL_BIT(COL_GROW)) || !s->hertz || !(p->valid & COL_BIT(COL_RSS)))
		return false;
	*age = s->uptime - (double)p->start_ticks / (double)s->hertz;
	*kb = (double)p->fig[PV_RSS] + (p->valid & COL_BIT(COL_SWAP) ? (double)p->fig[PV_SWAP] : 0);
	return *age >= 0 && *age < GROWTH_MIN_SPAN;
}

/* Row r into p when young and larger than p's (by size, or when rate, by its size over
 * its age, from VERDICT_GROW_KB_S) */
static void youngest(struct verdict_proc *p, const struct snapshot *s, const struct row *r,
		     bool rate)
{
	double age, kb;

	if (!young(s, r, &age, &kb))
		return;
	double v = rate ? kb / fmax(age, 1) : kb;
	if ((rate && v < VERDICT_GROW_KB_S) || (p->pid && !(v > p->value)))
		return;
	take(p, r, v);
	p->age_s = age;
	p->size_kb = kb;
}

/* Index of the cgroup with id among s's; -1: none */
static long cg_index(const struct snapshot *s, uint64_t id)
{
	for (size_t i = 0; id && i < s->ncgroups; i++)
		if (s->cgroups[i].id == id)
			return (long)i;
	return -1;
}

/* Process p is in the cgroup at index at of s, or below it */
static bool proc_within(const struct snapshot *s, const struct proc_sample *p, size_t at)
{
	uint64_t id = s->cg_version == 2 ? p->cgroup2_id : p->memcg_id;
	long i = cg_index(s, id);

	if (i < 0)
		return p->cgroup && cg_path_within(p->cgroup, s->cgroups[at].path);
	for (; i >= 0; i = s->cgroups[i].parent)
		if ((size_t)i == at)
			return true;
	return false;
}

/* Its usage's growth a second since the previous read; NAN: not read twice */
static double cg_growth(const struct snapshot *s, const struct snapshot *prev,
			const struct cg_sample *c)
{
	long i = prev ? cg_index(prev, c->id) : -1;
	double dt = prev ? s->mono_cgroups - prev->mono_cgroups : 0;

	if (i < 0 || !(dt > 0) || !(prev->cgroups[i].valid & CGCOL_BIT(CGCOL_USAGE)))
		return NAN;
	return ((double)c->v[CGCOL_USAGE] - (double)prev->cgroups[i].v[CGCOL_USAGE]) / dt;
}

/* Cgroup a is kept before b: the sooner to reach its limit, then the nearer it */
static bool before(const struct verdict_cgroup *a, const struct verdict_cgroup *b)
{
	double ta = a->eta_s >= 0 ? a->eta_s : INFINITY, tb = b->eta_s >= 0 ? b->eta_s : INFINITY;

	if (ta != tb)
		return ta < tb;
	return a->usage_kb / a->limit_kb > b->usage_kb / b->limit_kb;
}

/* A limit below RAM: the lower of memory.max and memory.high (*high: that one), 0 if
 * none, as the forecasts take it (forecast.c) */
static double limit_of(const struct cg_sample *c, double mem_total_kb, bool *high)
{
	unsigned lim = c->valid & ~c->unlimited;
	double max = lim & CGCOL_BIT(CGCOL_LIMIT) ? (double)c->v[CGCOL_LIMIT] : 0;
	double hi = lim & CGCOL_BIT(CGCOL_HIGH) ? (double)c->v[CGCOL_HIGH] : 0;

	if (!(max < mem_total_kb))
		max = 0;
	if (!(hi < mem_total_kb))
		hi = 0;
	*high = hi > 0 && (!max || hi < max);
	return *high ? hi : max;
}

/* The limited cgroups, those that reach their limits first kept, soonest first */
static void cgroups(const struct model *m, const struct cg_model *cgm, struct verdict_signals *v)
{
	const struct snapshot *s = model_current(m);

	for (size_t i = 0; cgm && i < cgm->nall; i++) {
		const struct cg_row *r = &cgm->all[i];
		const struct cg_sample *c = r->c;
		bool high;
		double limit = limit_of(c, v->mem_total_kb, &high);
		if (c->removed || !(c->valid & CGCOL_BIT(CGCOL_USAGE)) || !(limit > 0))
			continue;
		struct verdict_cgroup g = {
			.path = c->path,
			.name = c->name,
			.usage_kb = (double)c->v[CGCOL_USAGE],
			.limit_kb = limit,
			.high = high,
			.version = s->cg_version,
			.file_kb =
				c->valid & CGCOL_BIT(CGCOL_FILE) ? (double)c->v[CGCOL_FILE] : NAN,
			.grow_kb_s = cg_growth(s, model_previous(m), c),
			.stall_us_s = cg_row_valid(r, CGCOL_STALL) ? r->num[CGCOL_STALL] : NAN,
			.eta_s = c->trend & CGCOL_BIT(CGCOL_LIMIT_IN) ? c->limit_in_s : NAN,
			.top = {.value = NAN},
			.young = {.value = NAN},
			.victim = {.pid = c->trend & CGCOL_BIT(CGCOL_VICTIM) ? c->victim : 0},
		};
		if (c->trend & CGCOL_BIT(CGCOL_GROWTH))
			g.grow_kb_s = c->growth_kb_min / 60;
		const struct proc_sample *vp =
			g.victim.pid ? snapshot_find(s, 0, g.victim.pid) : NULL;
		if (vp) {
			memcpy(g.victim.comm, vp->comm, sizeof(g.victim.comm));
			proc_short_name(vp->comm, vp->cmd, g.victim.name, sizeof(g.victim.name));
		} else
			g.victim.pid = 0;
		size_t at = v->ncg < VERDICT_MAX_CGROUPS ? v->ncg++ : VERDICT_MAX_CGROUPS;
		while (at > 0 && before(&g, &v->cg[at - 1])) {
			if (at < VERDICT_MAX_CGROUPS)
				v->cg[at] = v->cg[at - 1];
			at--;
		}
		if (at < VERDICT_MAX_CGROUPS)
			v->cg[at] = g;
	}
	/* each one's fastest grower, and its largest process too young for GROW */
	for (size_t k = 0; k < v->ncg; k++) {
		long idx = -1; /* its index among the snapshot's, by its path's pointer */
		for (size_t i = 0; i < s->ncgroups && idx < 0; i++)
			if (s->cgroups[i].path == v->cg[k].path)
				idx = (long)i;
		for (size_t i = 0; idx >= 0 && i < m->nall; i++) {
			const struct row *r = &m->all[i];
			if (!proc_within(s, r->p, (size_t)idx))
				continue;
			if ((r->p->valid & COL_BIT(COL_GROW)) &&
			    row_number(r, COL_GROW) / 60 >= VERDICT_GROW_KB_S)
				beat(&v->cg[k].top, r, COL_GROW, 1.0 / 60);
			youngest(&v->cg[k].young, s, r, false);
		}
	}
}

void verdict_signals_of(const struct model *m, const struct cg_model *cgm,
			struct verdict_signals *v)
{
	memset(v, 0, sizeof(*v));
	v->mem_total_kb = fig(m, SF_MEM_TOTAL);
	v->mem_available_kb = fig(m, SF_MEM_AVAILABLE);
	v->swap_total_kb = fig(m, SF_SWAP_TOTAL);
	v->swap_free_kb = fig(m, SF_SWAP_FREE);
	v->exhaustion_s = m->fc.exhaustion_s;
	v->shrink_kb_s = m->fc.shrink_kb_s;
	/* the first refresh's rates span the time since boot: not now */
	bool now = model_previous(m) != NULL;
	v->pswpin_s = now ? fig(m, SF_PSWPIN_RATE) : NAN;
	v->stall_us_s = now ? fig(m, SF_STALL) : NAN;
	v->allocstall_s = now ? fig(m, SF_ALLOCSTALL_RATE) : NAN;
	v->slab_kb = fig(m, SF_SLAB);
	v->slab_grow_kb_s = fig_growth(m, SF_SLAB);
	v->shmem_kb = fig(m, SF_SHMEM);
	v->shmem_grow_kb_s = fig_growth(m, SF_SHMEM);
	v->grower.value = v->swapped.value = v->staller.value = v->young.value = NAN;
	v->kept.value = NAN;
	const struct snapshot *s = model_current(m);
	if (!s)
		return;
	for (size_t i = 0; i < m->nall; i++) {
		const struct row *r = &m->all[i];
		beat(&v->grower, r, COL_GROW, 1.0 / 60);
		beat(&v->swapped, r, COL_SWAPIN, 1);
		beat(&v->staller, r, COL_RECLAIM, 1);
		youngest(&v->young, s, r, true);
		/* the process the verdict named: its growth now, for it to hold */
		if (r->p->pid == m->verdict.pid && (r->p->valid & COL_BIT(COL_GROW)))
			take(&v->kept, r, row_number(r, COL_GROW) / 60);
	}
	cgroups(m, cgm, v);
}

void verdict_update(struct model *m, const struct cg_model *cgm)
{
	struct verdict_signals s;

	verdict_signals_of(m, cgm, &s);
	s.prev = &m->verdict; /* the refresh before's: verdict_rank reads it first */
	verdict_rank(&s, &m->verdict);
}
