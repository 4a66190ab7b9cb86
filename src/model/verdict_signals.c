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

/* The process of row r into p when its value beats p's */
static void beat(struct verdict_proc *p, const struct row *r, enum col_id c, double scale)
{
	if (!(r->p->valid & COL_BIT(c)))
		return;
	double v = row_number(r, c) * scale;
	if (p->pid && !(v > p->value))
		return;
	p->pid = r->p->pid;
	p->value = v;
	memcpy(p->comm, r->p->comm, sizeof(p->comm));
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

static double share(const struct verdict_cgroup *c)
{
	return c->usage_kb / c->limit_kb;
}

/* The limited cgroups, the nearest their limits kept, nearest first */
static void cgroups(const struct model *m, const struct cg_model *cgm, struct verdict_signals *v)
{
	const struct snapshot *s = model_current(m);
	const unsigned need = CGCOL_BIT(CGCOL_USAGE) | CGCOL_BIT(CGCOL_LIMIT);

	for (size_t i = 0; cgm && i < cgm->nall; i++) {
		const struct cg_row *r = &cgm->all[i];
		const struct cg_sample *c = r->c;
		if (c->removed || (c->valid & need) != need ||
		    (c->unlimited & CGCOL_BIT(CGCOL_LIMIT)) || !c->v[CGCOL_LIMIT] ||
		    !((double)c->v[CGCOL_LIMIT] < v->mem_total_kb))
			continue;
		struct verdict_cgroup g = {
			.path = c->path,
			.usage_kb = (double)c->v[CGCOL_USAGE],
			.limit_kb = (double)c->v[CGCOL_LIMIT],
			.file_kb =
				c->valid & CGCOL_BIT(CGCOL_FILE) ? (double)c->v[CGCOL_FILE] : NAN,
			.grow_kb_s = cg_growth(s, model_previous(m), c),
			.stall_us_s = cg_row_valid(r, CGCOL_STALL) ? r->num[CGCOL_STALL] : NAN,
			.eta_s = c->trend & CGCOL_BIT(CGCOL_LIMIT_IN) ? c->limit_in_s : NAN,
			.top = {.value = NAN},
			.victim = {.pid = c->trend & CGCOL_BIT(CGCOL_VICTIM) ? c->victim : 0},
		};
		if (c->trend & CGCOL_BIT(CGCOL_GROWTH))
			g.grow_kb_s = c->growth_kb_min / 60;
		const struct proc_sample *vp =
			g.victim.pid ? snapshot_find(s, 0, g.victim.pid) : NULL;
		if (vp)
			memcpy(g.victim.comm, vp->comm, sizeof(g.victim.comm));
		else
			g.victim.pid = 0;
		size_t at = v->ncg < VERDICT_MAX_CGROUPS ? v->ncg++ : VERDICT_MAX_CGROUPS;
		while (at > 0 && share(&v->cg[at - 1]) < share(&g)) {
			if (at < VERDICT_MAX_CGROUPS)
				v->cg[at] = v->cg[at - 1];
			at--;
		}
		if (at < VERDICT_MAX_CGROUPS)
			v->cg[at] = g;
	}
	/* each one's fastest grower */
	for (size_t k = 0; k < v->ncg; k++) {
		long idx = -1; /* its index among the snapshot's, by its path's pointer */
		for (size_t i = 0; i < s->ncgroups && idx < 0; i++)
			if (s->cgroups[i].path == v->cg[k].path)
				idx = (long)i;
		for (size_t i = 0; idx >= 0 && i < m->nall; i++)
			if ((m->all[i].p->valid & COL_BIT(COL_GROW)) &&
			    row_number(&m->all[i], COL_GROW) / 60 >= VERDICT_GROW_KB_S &&
			    proc_within(s, m->all[i].p, (size_t)idx))
				beat(&v->cg[k].top, &m->all[i], COL_GROW, 1.0 / 60);
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
	v->grower.value = v->swapped.value = v->staller.value = NAN;
	if (!model_current(m))
		return;
	for (size_t i = 0; i < m->nall; i++) {
		beat(&v->grower, &m->all[i], COL_GROW, 1.0 / 60);
		beat(&v->swapped, &m->all[i], COL_SWAPIN, 1);
		beat(&v->staller, &m->all[i], COL_RECLAIM, 1);
	}
	cgroups(m, cgm, v);
}

void verdict_update(struct model *m, const struct cg_model *cgm)
{
	struct verdict_signals s;

	verdict_signals_of(m, cgm, &s);
	verdict_rank(&s, &m->verdict);
}
