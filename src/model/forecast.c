/* The forecasts (forecast.h): the machine's and each limited cgroup's, their OOM victims,
 * and the one that runs out first. */
#include "forecast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "sysfig.h"
#include "util.h"

/* Sums of a run of (t, v) samples, for its least-squares line */
struct sums {
	double n, t, v, tt, tv, vv;
};

static void sums_add(struct sums *s, double t, double v, double sign)
{
	s->n += sign;
	s->t += sign * t;
	s->v += sign * v;
	s->tt += sign * t * t;
	s->tv += sign * t * v;
	s->vv += sign * v * v;
}

/* The squared residuals of the least-squares line through the run */
static double sse(const struct sums *s)
{
	if (s->n < 3)
		return 0;
	double ctt = s->tt - s->t * s->t / s->n, ctv = s->tv - s->t * s->v / s->n;
	double cvv = s->vv - s->v * s->v / s->n;
	double r = ctt > 0 ? cvv - ctv * ctv / ctt : cvv;
	return r > 0 ? r : 0;
}

/* The newest step or change of slope among the n samples (newest first, v relative to
 * v[0]): the number of samples after it (the newest run, 1 or more), n where none. A
 * split of the window into a newer and an older run (each a line) is a step where it
 * leaves a tenth of the one line's squared residuals or less, and that line misses the
 * samples by FC_STEP_NOISE_KB or more (root mean square): below it, noise. */
static size_t newest_run(const double *t, const double *v, size_t n)
{
	struct sums all = {0}, newer = {0};

	for (size_t i = 0; i < n; i++)
		sums_add(&all, t[i], v[i] - v[0], 1);
	double one = sse(&all), best = INFINITY;
	size_t cut = n;
	if (n < 4 || one < (double)n * FC_STEP_NOISE_KB * FC_STEP_NOISE_KB)
		return n;
	struct sums older = all;
	for (size_t k = 1; k + 3 <= n; k++) {
		sums_add(&newer, t[k - 1], v[k - 1] - v[0], 1);
		sums_add(&older, t[k - 1], v[k - 1] - v[0], -1);
		double two = sse(&newer) + sse(&older);
		if (two < best) {
			best = two;
			cut = k;
		}
	}
	if (best > 0.1 * one)
		return n;
	/* the newer run may hold a later step of its own */
	return newest_run(t, v, cut);
}

/* The room left v (KiB) at times t (newest first, <= 0), cut at its newest step: the
 * seconds until it runs out (*secs) at the trend (*rate, KiB/s, negative: shrinking); cut:
 * the window was cut already (it starts at an OOM kill);
 * true when it shrinks over the window and over its recent part, and runs out within
 * FC_HORIZON. *ok: a trend at all. *rise: the room rose at a step within the window by
 * more than the trend before it would have taken (usage dropped: a kill, an exit, freed
 * cache), at *rise_t (<= 0). */
static bool fit_room(const double *t, const double *v, size_t n, bool cut, double *secs,
		     double *rate, bool *ok, bool *rise, double *rise_t)
{
	bool ok_recent = false;
	size_t recent = 0, min_n = cut ? FC_STEP_MIN_SAMPLES : FC_MIN_SAMPLES;
	double min_span = cut ? FC_STEP_MIN_SPAN : FC_MIN_SPAN;

	*rate = 0;
	*rise = false;
	*rise_t = 0;
	size_t run = newest_run(t, v, n);
	if (run < n) {
		bool ok_old;
		size_t m = n - run < 60 ? n - run : 60;
		double old = history_slope(t + run, v + run, m, 0, &ok_old);
		double dt = t[run - 1] - t[run];
		*rise = v[run - 1] - v[run] > fmax(0, -old) * dt;
		*rise_t = t[run - 1];
		n = run;
		min_n = FC_STEP_MIN_SAMPLES;
		min_span = FC_STEP_MIN_SPAN;
	}
	*ok = n >= min_n;
	double full = *ok ? history_slope(t, v, n, min_span, ok) : 0;
	if (!*ok)
		return false;
	while (recent < n && t[recent] >= -FC_RECENT)
		recent++;
	double now = recent >= FC_MIN_SAMPLES && recent < n
			     ? history_slope(t, v, recent, FC_RECENT / 2, &ok_recent)
			     : full;
	/* the trend changed within the window: the recent part's */
	*rate = ok_recent && fabs(now - full) > 0.1 * fabs(full) ? now : full;
	if (*rate >= 0 || (ok_recent && now >= 0))
		return false;
	*secs = (v[0] > 0 ? v[0] : 0) / -*rate;
	return *secs < FC_HORIZON;
}

/* The forecast of one refresh into what is kept: made, held, steady, gone. A forecast
 * made before the room rose at a step (at mono time rise_at, 0: none) ends there: a kill
 * or an exit is news, not a trend. */
static void hold_step(struct fc_hold *h, bool made, double secs, double rate, double now,
		      double rise_at)
{
	if (made) {
		h->secs = secs;
		h->at = now;
		h->state = FC_RUNS_OUT;
	} else if (h->at > 0 && rise_at > 0 && rise_at > h->at) {
		h->at = 0;
		h->state = FC_NONE;
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
	return (proc_valid(p, COL_RSS) ? (double)p->fig[PV_RSS] : 0) +
	       (proc_valid(p, COL_SWAP) ? (double)p->fig[PV_SWAP] : 0);
}

/* The machine's next victim: the highest oom_score; on a tie the larger RSS + swap, then
 * the later started (the kernel takes the last of equal badness in its task list, which
 * runs in the order tasks were made). The one named stays until another passes it by
 * FC_VICTIM_MARGIN points. */
static void machine_victim(struct forecasts *fc, const struct snapshot *s)
{
	const struct proc_sample *best = NULL, *cur = NULL;

	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc_sample *p = &s->procs[i];
		if (!proc_valid(p, COL_OOM))
			continue;
		if (p->pid == fc->next_victim_pid)
			cur = p;
		if (!best || p->fig[PV_OOM] > best->fig[PV_OOM] ||
		    (p->fig[PV_OOM] == best->fig[PV_OOM] &&
		     (size_kb(p) > size_kb(best) ||
		      (size_kb(p) == size_kb(best) && p->start_ticks >= best->start_ticks))))
			best = p;
	}
	if (cur && best && best->fig[PV_OOM] <= cur->fig[PV_OOM] + FC_VICTIM_MARGIN)
		best = cur;
	fc->next_victim_pid = best ? best->pid : 0;
	if (best)
		proc_short_name(best->comm, best->cmd, fc->next_victim_name,
				sizeof(fc->next_victim_name));
	else
		fc->next_victim_name[0] = '\0';
}

static void machine(struct forecasts *fc, const struct snapshot *s, const struct history *h,
		    double now)
{
	double t[900], v[900], secs = 0, rate, rise_t;
	bool ok, rise;
	size_t n = history_room_points(h, FC_WINDOW, SF_MEM_AVAILABLE, SF_SWAP_FREE, t, v, 900);
	bool made = fit_room(t, v, n, false, &secs, &rate, &ok, &rise, &rise_t);

	hold_step(&fc->sys_hold, made, secs, rate, now, rise ? now + rise_t : 0);
	fc->shrink_kb_s = rate;
	fc->exhaustion_s = -1;
	if (fc->sys_hold.state == FC_RUNS_OUT || fc->sys_hold.state == FC_HELD)
		fc->exhaustion_s = fmax(0, fc->sys_hold.secs - (now - fc->sys_hold.at));
	machine_victim(fc, s);
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

static struct cg_trend *trend_of(struct forecasts *fc, const struct cg_sample *c, double now)
{
	for (size_t i = 0; i < fc->ncgt; i++)
		if (fc->cgt[i].id == c->id && !strcmp(fc->cgt[i].path, c->path))
			return &fc->cgt[i];
	fc->cgt = xgrow(fc->cgt, fc->ncgt, &fc->cgt_cap, sizeof(*fc->cgt), 4);
	struct cg_trend *t = memset(&fc->cgt[fc->ncgt++], 0, sizeof(*fc->cgt));
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

static void cgroup(struct forecasts *fc, const struct snapshot *s, struct cg_sample *c, double now)
{
	uint64_t limit = limit_of(c, s->mem[MI_MEM_TOTAL]);

	c->trend = 0;
	if (!limit || !(c->valid & CGCOL_BIT(CGCOL_USAGE)) || c->removed)
		return;
	struct cg_trend *t = trend_of(fc, c, now);
	t->limit_kb = limit;
	t->seen = now;
	/* an OOM kill since the last refresh: the fit starts again from this sample, and
	 * the forecast before it ends */
	bool killed = false;
	if (c->valid & CGCOL_BIT(CGCOL_OOM_KERNEL)) {
		killed = t->n && c->v[CGCOL_OOM_KERNEL] > t->oom_kills;
		t->oom_kills = c->v[CGCOL_OOM_KERNEL];
	}
	trend_push(t, s->mono_cgroups, c->v[CGCOL_USAGE]);
	if (killed)
		t->cut_at = s->mono_cgroups;
	/* the room left, newest first, over the window from the last kill */
	double tt[CGT_SAMPLES], v[CGT_SAMPLES], secs = 0, rate, rise_t;
	size_t n = 0;
	bool cut = false;
	double newest = t->mono[(t->head + t->n - 1) % CGT_SAMPLES];
	for (size_t k = t->n; k-- > 0;) {
		size_t i = (t->head + k) % CGT_SAMPLES;
		if (t->mono[i] < newest - FC_WINDOW)
			break;
		if ((cut = t->mono[i] < t->cut_at))
			break;
		tt[n] = t->mono[i] - newest;
		v[n++] = (double)limit - t->usage_kb[i];
	}
	bool ok, rise, made = fit_room(tt, v, n, cut, &secs, &rate, &ok, &rise, &rise_t);
	cg_victim(s, c, t);
	/* a cgroup with no process has nothing that grows to forecast */
	if (!t->npids)
		made = false;
	hold_step(&t->hold, made, secs, rate, now,
		  killed || !t->npids ? now
		  : rise	      ? now + rise_t
				      : 0);
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
static void prune(struct forecasts *fc, double now)
{
	size_t k = 0;

	for (size_t i = 0; i < fc->ncgt; i++) {
		if (now - fc->cgt[i].seen <= HISTORY_KEEP_GONE) {
			fc->cgt[k++] = fc->cgt[i];
			continue;
		}
		free(fc->cgt[i].path);
		free(fc->cgt[i].pids);
	}
	fc->ncgt = k;
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

/* The limit that runs out first; the one named at the last refresh (the machine, or a
 * cgroup by its path) while it still runs out and no other runs out sooner by
 * FC_PICK_MARGIN of its time, as the verdict keeps its own */
static void headline(struct forecasts *fc, const struct snapshot *s, double now)
{
	struct forecast *f = &fc->forecast;
	const struct fc_hold *best = &fc->sys_hold, *kept = f->cgroup ? NULL : &fc->sys_hold;
	const struct cg_trend *bt = NULL, *kt = NULL;

	for (size_t i = 0; i < fc->ncgt; i++) {
		if (fc->cgt[i].seen != now)
			continue;
		if (sooner(&fc->cgt[i].hold, best, now)) {
			best = &fc->cgt[i].hold;
			bt = &fc->cgt[i];
		}
		if (f->cgroup && !strcmp(fc->cgt[i].path, f->path)) {
			kept = &fc->cgt[i].hold;
			kt = &fc->cgt[i];
		}
	}
	if (kept && kept != best && isfinite(left(kept, now)) &&
	    !(left(best, now) < left(kept, now) * (1 - FC_PICK_MARGIN))) {
		best = kept;
		bt = kt;
	}
	memset(f, 0, sizeof(*f));
	f->state = best->state;
	f->secs = best->secs;
	f->age = best->state == FC_RUNS_OUT ? 0 : now - best->at;
	if (!bt) {
		f->victim = fc->next_victim_pid;
		memcpy(f->victim_name, fc->next_victim_name, sizeof(f->victim_name));
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
		proc_short_name(p->comm, p->cmd, f->victim_name, sizeof(f->victim_name));
	for (size_t i = 0; i < s->ncgroups; i++)
		if (s->cgroups[i].id == bt->id)
			f->group = s->cgroups[i].oom_group;
}

void forecast_init(struct forecasts *fc)
{
	memset(fc, 0, sizeof(*fc));
	fc->exhaustion_s = -1;
}

void forecast_step(struct forecasts *fc, struct snapshot *s, const struct history *h)
{
	double now = s->mono;

	machine(fc, s, h, now);
	for (size_t i = 0; s->cg_cols && i < s->ncgroups; i++)
		cgroup(fc, s, &s->cgroups[i], now);
	prune(fc, now);
	headline(fc, s, now);
}

void forecast_free(struct forecasts *fc)
{
	for (size_t i = 0; i < fc->ncgt; i++) {
		free(fc->cgt[i].path);
		free(fc->cgt[i].pids);
	}
	free(fc->cgt);
	fc->cgt = NULL;
	fc->ncgt = fc->cgt_cap = 0;
}

const struct cg_trend *forecast_cg_trend(const struct forecasts *fc, const char *memcg)
{
	const struct cg_trend *best = NULL;

	for (size_t i = 0; i < fc->ncgt; i++) {
		const char *p = fc->cgt[i].path;
		size_t n = strlen(p);
		bool within = !strcmp(p, "/") ||
			      (!strncmp(memcg, p, n) && (memcg[n] == '\0' || memcg[n] == '/'));
		if (within && (!best || strlen(best->path) < n))
			best = &fc->cgt[i];
	}
	return best;
}
