/* The post-mortem's cgroup part (oom_cgroup.h): the cgroup's trend, processes, OOM counts
 * and verdict as they stood at the last refresh before a kill. */
#include "oom_cgroup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "util.h"

static int cmp_pid(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* Its processes: the growing first, fastest first; then by RSS */
static int cmp_proc(const void *a, const void *b)
{
	const struct oom_top *x = a, *y = b;
	bool gx = !isnan(x->growth_kb_per_min), gy = !isnan(y->growth_kb_per_min);

	if (gx != gy)
		return gx ? -1 : 1;
	if (gx && x->growth_kb_per_min != y->growth_kb_per_min)
		return x->growth_kb_per_min > y->growth_kb_per_min ? -1 : 1;
	return (x->rss_kb < y->rss_kb) - (x->rss_kb > y->rss_kb);
}

/* The history's processes at the refresh before the kill that were in the cgroup then */
struct members {
	const struct model *m;
	double at;
	const int32_t *pids; /* sorted */
	size_t npids;
	struct oom_top *procs;
	size_t n, cap;
};

static void member(void *arg, const struct history_proc *p)
{
	struct members *c = arg;
	double kb;

	if (!bsearch(&p->pid, c->pids, c->npids, sizeof(*c->pids), cmp_pid))
		return;
	c->procs = xgrow(c->procs, c->n, &c->cap, sizeof(*c->procs), 16);
	struct oom_top *t = memset(&c->procs[c->n++], 0, sizeof(*c->procs));
	t->pid = p->pid;
	t->rss_kb = p->rss_kb;
	snprintf(t->comm, sizeof(t->comm), "%s", p->comm);
	t->growth_kb_per_min =
		history_growth(c->m->hist, p->pid, p->start_ticks, c->at, 60, &kb, NULL) ? kb : NAN;
}

static void processes(const struct model *m, const struct cg_trend *t, int32_t victim, double at,
		      struct oom_cgroup *cg)
{
	int32_t *pids = xcalloc(t->npids ? t->npids : 1, sizeof(*pids));
	struct members c = {.m = m, .at = at, .pids = pids, .npids = t->npids};

	if (t->npids) {
		memcpy(pids, t->pids, t->npids * sizeof(*pids));
		qsort(pids, t->npids, sizeof(*pids), cmp_pid);
		history_procs_at(m->hist, at, member, &c);
	}
	cg->ntasks = t->npids;
	cg->nprocs = c.n < OOM_CG_PROCS ? c.n : OOM_CG_PROCS;
	if (c.n) {
		qsort(c.procs, c.n, sizeof(*c.procs), cmp_proc);
		memcpy(cg->procs, c.procs, cg->nprocs * sizeof(*cg->procs));
	}
	for (size_t i = OOM_CG_PROCS; i < c.n; i++) /* the victim, where it came later */
		if (c.procs[i].pid == victim)
			cg->procs[OOM_CG_PROCS - 1] = c.procs[i];
	free(c.procs);
	free(pids);
}

/* The kernel's count of OOM kills in the cgroup of t in snapshot s; -1: not read */
static int64_t oom_kills(const struct snapshot *s, const struct cg_trend *t)
{
	for (size_t i = 0; s && i < s->ncgroups; i++) {
		const struct cg_sample *c = &s->cgroups[i];
		if (c->id == t->id && !strcmp(c->path, t->path))
			return c->valid & CGCOL_BIT(CGCOL_OOM_KERNEL)
				       ? (int64_t)c->v[CGCOL_OOM_KERNEL]
				       : -1;
	}
	return -1;
}

struct oom_cgroup *oom_cgroup_of(const struct model *m, const struct mt_event *e, double at,
				 double kill)
{
	const struct cg_trend *t =
		e->memcg[0] && strcmp(e->memcg, "/") ? forecast_cg_trend(&m->fc, e->memcg) : NULL;

	if (!t || !strcmp(t->path, "/") || !t->n || t->mono[t->head] > kill)
		return NULL;
	struct oom_cgroup *cg = xcalloc(1, sizeof(*cg));
	snprintf(cg->path, sizeof(cg->path), "%s", t->path);
	const struct cg_sample *named = snapshot_cgroup(model_current(m), t->id, t->path);
	if (!named)
		named = snapshot_cgroup(model_previous(m), t->id, t->path);
	snprintf(cg->name, sizeof(cg->name), "%s", named && named->name ? named->name : "");
	cg->limit_kb = t->limit_kb;
	for (size_t k = 0; k < t->n; k++) { /* every sample held before the kill */
		size_t i = (t->head + k) % CGT_SAMPLES;
		if (t->mono[i] > kill)
			break;
		cg->t[cg->n] = (float)(t->mono[i] - kill);
		cg->usage_kb_at[cg->n++] = t->usage_kb[i];
	}
	cg->usage_kb = (uint64_t)cg->usage_kb_at[cg->n - 1];
	processes(m, t, e->pid, at, cg);
	cg->oom_kills_before = oom_kills(model_previous(m), t);
	cg->oom_kills_after = oom_kills(model_current(m), t);
	snprintf(cg->verdict, sizeof(cg->verdict), "%s", m->verdict.text);
	return cg;
}
