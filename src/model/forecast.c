/* The forecasts (forecast.h): the machine's and each limited cgroup's, their OOM victims,
 * and the one that runs out first. */
#include "forecast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "model.h"
#include "sysfig.h"
#include "util.h"

/* The room left v (KiB) at times t (newest first, <= 0): the seconds until it runs out
 * (*secs) at the trend (*rate, KiB/s, negative: shrinking); true when it shrinks over the
 * window and over its recent part, and runs out within FC_HORIZON. *ok: a trend at all. */
static bool fit_room(const double *t, const double *v, size_t n, double *secs, double *rate,
		     bool *ok)
{
	bool ok_recent = false;
	size_t recent = 0;

	*rate = 0;
	*ok = n >= FC_MIN_SAMPLES;
	double full = *ok ? history_slope(t, v, n, FC_MIN_SPAN, ok) : 0;
	if (!*ok)
		return false;
	while (recent < n && t[recent] >= -FC_RECENT)
		recent++;
	double now = recent >= FC_MIN_SAMPLES
			     ? history_slope(t, v, recent, FC_RECENT / 2, &ok_recent)
			     : 0;
	/* the trend changed within the window: the recent part's */
	*rate = ok_recent && fabs(now - full) > 0.1 * fabs(full) ? now : full;
	if (*rate >= 0 || (ok_recent && now >= 0))
		return false;
	*secs = (v[0] > 0 ? v[0] : 0) / -*rate;
	return *secs < FC_HORIZON;
}

/* The forecast of one refresh into what is kept: made, held, steady, gone */
static void hold_step(struct fc_hold *h, bool made, double secs, double rate, double now)
{
	if (made) {
		h->secs = secs;
		h->at = now;
		h->state = FC_RUNS_OUT;
	} else if (h->at > 0 && now - h->at <= FC_HOLD_S) {
		h->state = FC_HELD;
	} else if (h->at > 0 && now - h->at <= FC_HOLD_S + FC_STEADY_S) {
		h->state = rate < 0 ? FC_SHRINKING : FC_STEADY;
	} else {
		h->at = 0;
		h->state = FC_NONE;
	}
}

static bool proc_valid(const struct proc_sample *p, enum col_id c)
{
	return (p->valid & COL_BIT(c)) != 0;
}

static double size_kb(const struct proc_sample *p)
{
	return (proc_valid(p, COL_RSS) ? (double)p->v[COL_RSS] : 0) +
	       (proc_valid(p, COL_SWAP) ? (double)p->v[COL_SWAP] : 0);
}

/* The machine's next victim: the highest oom_score; on a tie the larger RSS + swap, then
 * the later started (the kernel takes the last of equal badness in its task list, which
 * runs in the order tasks were made). The one named stays until another passes it by
 * FC_VICTIM_MARGIN points. */
static void machine_victim(struct model *m)
{
	const struct proc_sample *best = NULL, *cur = NULL;

	for (size_t i = 0; i < m->nall; i++) {
		const struct proc_sample *p = m->all[i].p;
		if (!proc_valid(p, COL_OOM))
			continue;
		if (p->pid == m->next_victim_pid)
			cur = p;
		if (!best || p->v[COL_OOM] > best->v[COL_OOM] ||
		    (p->v[COL_OOM] == best->v[COL_OOM] &&
		     (size_kb(p) > size_kb(best) ||
		      (size_kb(p) == size_kb(best) && p->start_ticks >= best->start_ticks))))
			best = p;
	}
	if (cur && best && best->v[COL_OOM] <= cur->v[COL_OOM] + FC_VICTIM_MARGIN)
		best = cur;
	m->next_victim_pid = best ? best->pid : 0;
	if (best)
		memcpy(m->next_victim_comm, best->comm, sizeof(m->next_victim_comm));
	else
		m->next_victim_comm[0] = '\0';
}

static void machine(struct model *m, double now)
{
	double t[900], v[900], secs = 0, rate;
	bool ok;
	size_t n =
		history_room_points(m->hist, FC_WINDOW, SF_MEM_AVAILABLE, SF_SWAP_FREE, t, v, 900);
	bool made = fit_room(t, v, n, &secs, &rate, &ok);

	hold_step(&m->sys_hold, made, secs, rate, now);
	m->shrink_kb_s = rate;
	m->exhaustion_s = -1;
	if (m->sys_hold.state == FC_RUNS_OUT || m->sys_hold.state == FC_HELD)
		m->exhaustion_s = fmax(0, m->sys_hold.secs - (now - m->sys_hold.at));
	machine_victim(m);
}

/* A limit below RAM: the lower of memory.max and memory.high, 0 if none */
static uint64_t limit_of(const struct cg_sample *c, uint64_t mem_total_kb)
{
	unsigned lim = c->valid & ~c->unlimited;
	uint64_t best = 0;

	if ((lim & CGCOL_BIT(CGCOL_LIMIT)) && c->v[CGCOL_LIMIT] < mem_total_kb)
		best = c->v[CGCOL_LIMIT];
	if ((lim & CGCOL_BIT(CGCOL_HIGH)) && c->v[CGCOL_HIGH] < mem_total_kb &&
	    (!best || c->v[CGCOL_HIGH] < best))
		best = c->v[CGCOL_HIGH];
	return best;
}

static struct cg_trend *trend_of(struct model *m, const struct cg_sample *c, double now)
{
	for (size_t i = 0; i < m->ncgt; i++)
		if (m->cgt[i].id == c->id && !strcmp(m->cgt[i].path, c->path))
			return &m->cgt[i];
	m->cgt = xgrow(m->cgt, m->ncgt, &m->cgt_cap, sizeof(*m->cgt), 4);
	struct cg_trend *t = memset(&m->cgt[m->ncgt++], 0, sizeof(*m->cgt));
	t->id = c->id;
	t->path = xstrdup(c->path);
	t->seen = now;
	return t;
}

static void trend_push(struct cg_trend *t, double mono, uint64_t usage_kb)
{
	size_t i = (t->head + t->n) % CGT_SAMPLES;

	if (t->n == CGT_SAMPLES)
		t->head = (t->head + 1) % CGT_SAMPLES;
	else
		t->n++;
	t->mono[i] = mono;
	t->usage_kb[i] = (float)usage_kb;
}

double cg_trend_usage_at(const struct cg_trend *t, double at)
{
	for (size_t k = t->n; k-- > 0;) {
		size_t i = (t->head + k) % CGT_SAMPLES;
		if (t->mono[i] <= at)
			return t->usage_kb[i];
	}
	return NAN;
}

/* The process the memcg OOM killer takes in c: the highest badness, its RSS + swap plus
 * oom_score_adj thousandths of the limit (adj -1000: never); of equal badness the last
 * found in the order its cgroup.procs files list them, as the kernel's scan does. The
 * one named stays until another passes it by FC_CG_VICTIM_MARGIN of the limit. */
static void cg_victim(const struct snapshot *s, const struct cg_sample *c, struct cg_trend *t)
{
	int32_t best = 0;
	double best_pts = -INFINITY, cur_pts = -INFINITY;

	t->npids = 0;
	t->pids = xrealloc(t->pids, (c->ntasks ? c->ntasks : 1) * sizeof(*t->pids));
	for (size_t k = c->task0; k < c->task0 + c->ntasks && k < s->ncg_tasks; k++) {
		const struct cg_task *task = &s->cg_tasks[k];
		t->pids[t->npids++] = task->pid;
		const struct proc_sample *p = snapshot_find(s, 0, task->pid);
		if (!p || task->oom_score_adj <= -1000)
			continue;
		double pts = size_kb(p) + (double)task->oom_score_adj * (double)t->limit_kb / 1000;
		if (p->pid == t->victim)
			cur_pts = pts;
		if (pts >= best_pts) {
			best_pts = pts;
			best = p->pid;
		}
	}
	if (cur_pts > -INFINITY && best_pts <= cur_pts + FC_CG_VICTIM_MARGIN * (double)t->limit_kb)
		best = t->victim;
	t->victim = best;
	t->victim_points = best ? fmax(best_pts, cur_pts) : 0;
}

static void cgroup(struct model *m, const struct snapshot *s, struct cg_sample *c, double now)
{
	uint64_t limit = limit_of(c, s->mem[MI_MEM_TOTAL]);

	c->trend = 0;
	if (!limit || !(c->valid & CGCOL_BIT(CGCOL_USAGE)) || c->removed)
		return;
	struct cg_trend *t = trend_of(m, c, now);
	t->limit_kb = limit;
	t->seen = now;
	if (c->valid & CGCOL_BIT(CGCOL_OOM_KERNEL))
		t->oom_kills = c->v[CGCOL_OOM_KERNEL];
	trend_push(t, s->mono_cgroups, c->v[CGCOL_USAGE]);
	/* the room left, newest first, over the window */
	double tt[CGT_SAMPLES], v[CGT_SAMPLES], secs = 0, rate;
	size_t n = 0;
	double newest = t->mono[(t->head + t->n - 1) % CGT_SAMPLES];
	for (size_t k = t->n; k-- > 0;) {
		size_t i = (t->head + k) % CGT_SAMPLES;
		if (t->mono[i] < newest - FC_WINDOW)
			break;
		tt[n] = t->mono[i] - newest;
		v[n++] = (double)limit - t->usage_kb[i];
	}
	bool ok, made = fit_room(tt, v, n, &secs, &rate, &ok);
	hold_step(&t->hold, made, secs, rate, now);
	cg_victim(s, c, t);
	if (ok) {
		c->growth_kb_min = -rate * 60;
		c->trend |= CGCOL_BIT(CGCOL_GROWTH);
	}
	if (t->hold.state == FC_RUNS_OUT || t->hold.state == FC_HELD) {
		c->limit_in_s = fmax(0, t->hold.secs - (now - t->hold.at));
		c->trend |= CGCOL_BIT(CGCOL_LIMIT_IN);
	}
	if (t->victim) {
		c->victim = t->victim;
		c->trend |= CGCOL_BIT(CGCOL_VICTIM);
	}
}

/* The cgroups not seen for HISTORY_KEEP_GONE seconds are forgotten */
static void prune(struct model *m, double now)
{
	size_t k = 0;

	for (size_t i = 0; i < m->ncgt; i++) {
		if (now - m->cgt[i].seen <= HISTORY_KEEP_GONE) {
			m->cgt[k++] = m->cgt[i];
			continue;
		}
		free(m->cgt[i].path);
		free(m->cgt[i].pids);
	}
	m->ncgt = k;
}

static double left(const struct fc_hold *h, double now)
{
	return h->state == FC_RUNS_OUT || h->state == FC_HELD ? h->secs - (now - h->at) : INFINITY;
}

/* Ranks: running out (made or held) first, soonest first; then steady or shrinking */
static bool sooner(const struct fc_hold *a, const struct fc_hold *b, double now)
{
	bool ra = isfinite(left(a, now)), rb = isfinite(left(b, now));

	if (ra != rb)
		return ra;
	if (ra)
		return left(a, now) < left(b, now);
	return a->state != FC_NONE && b->state == FC_NONE;
}

static void headline(struct model *m, const struct snapshot *s, double now)
{
	struct forecast *f = &m->forecast;
	const struct fc_hold *best = &m->sys_hold;
	const struct cg_trend *bt = NULL;

	for (size_t i = 0; i < m->ncgt; i++)
		if (m->cgt[i].seen == now && sooner(&m->cgt[i].hold, best, now)) {
			best = &m->cgt[i].hold;
			bt = &m->cgt[i];
		}
	memset(f, 0, sizeof(*f));
	f->state = best->state;
	f->secs = best->secs;
	f->age = best->state == FC_RUNS_OUT ? 0 : now - best->at;
	if (!bt) {
		f->victim = m->next_victim_pid;
		memcpy(f->victim_comm, m->next_victim_comm, sizeof(f->victim_comm));
		return;
	}
	f->cgroup = true;
	snprintf(f->path, sizeof(f->path), "%s", bt->path);
	f->limit_kb = bt->limit_kb;
	f->usage_kb = bt->n ? (uint64_t)bt->usage_kb[(bt->head + bt->n - 1) % CGT_SAMPLES] : 0;
	f->victim = bt->victim;
	f->ntasks = (uint32_t)bt->npids;
	const struct proc_sample *p = bt->victim ? snapshot_find(s, 0, bt->victim) : NULL;
	if (p)
		memcpy(f->victim_comm, p->comm, sizeof(f->victim_comm));
	for (size_t i = 0; i < s->ncgroups; i++)
		if (s->cgroups[i].id == bt->id)
			f->group = s->cgroups[i].oom_group;
}

void forecast_step(struct model *m)
{
	struct snapshot *s = model_current_mut(m);
	double now = s->mono;

	machine(m, now);
	for (size_t i = 0; s->cg_cols && i < s->ncgroups; i++)
		cgroup(m, s, &s->cgroups[i], now);
	prune(m, now);
	headline(m, s, now);
}

void forecast_free(struct model *m)
{
	for (size_t i = 0; i < m->ncgt; i++) {
		free(m->cgt[i].path);
		free(m->cgt[i].pids);
	}
	free(m->cgt);
	m->cgt = NULL;
	m->ncgt = m->cgt_cap = 0;
}

const struct cg_trend *forecast_cg_trend(const struct model *m, const char *memcg)
{
	const struct cg_trend *best = NULL;

	for (size_t i = 0; i < m->ncgt; i++) {
		const char *p = m->cgt[i].path;
		size_t n = strlen(p);
		bool within = !strcmp(p, "/") ||
			      (!strncmp(memcg, p, n) && (memcg[n] == '\0' || memcg[n] == '/'));
		if (within && (!best || strlen(best->path) < n))
			best = &m->cgt[i];
	}
	return best;
}
