/* The verdict's ranking (the rules are in verdict.h) and its line of text */
#include "verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cgcolumns.h"
#include "text.h"

static const char *const cause_names[VERDICT_NCAUSES] = {
	[VERDICT_NONE] = "none",
	[VERDICT_SWAP_STORM] = "swap_storm",
	[VERDICT_CGROUP_LIMIT] = "cgroup_limit",
	[VERDICT_SYSTEM_LEAK] = "system_leak",
	[VERDICT_SLAB_GROWTH] = "slab_growth",
	[VERDICT_SHMEM_GROWTH] = "shmem_growth",
	[VERDICT_RECLAIM_STALL] = "reclaim_stall",
};

const char *verdict_cause_name(enum verdict_cause c)
{
	return c < VERDICT_NCAUSES ? cause_names[c] : "none";
}

/* A figure of the evidence; one not known (NAN) is left out */
static void fact(struct verdict *v, const char *key, double value)
{
	if (isnan(value) || v->nfacts >= VERDICT_MAX_FACTS)
		return;
	v->facts[v->nfacts++] = (struct verdict_fact){.key = key, .value = value};
}

/* Appends to the line, cut at its end */
static void say(struct verdict *v, const char *fmt, ...)
{
	size_t n = strlen(v->text);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->text + n, sizeof(v->text) - n, fmt, ap);
	va_end(ap);
}

/* "300M"; "?" where not known */
static const char *size(double kb, char *buf, size_t n)
{
	if (isnan(kb) || kb < 0)
		return fmt_cut("?", 1, buf, n), buf;
	fmt_kb((uint64_t)kb, buf, n);
	return buf;
}

/* "~35 s", "~12 min", "~3.5 h" */
static const char *when(double s, char *buf, size_t n)
{
	if (s < 60)
		snprintf(buf, n, "~%.0f s", s < 1 ? 1 : s);
	else if (s < 3600)
		snprintf(buf, n, "~%.0f min", round(s / 60));
	else
		snprintf(buf, n, "~%.1f h", s / 3600);
	return buf;
}

static void name(struct verdict *v, const struct verdict_proc *p)
{
	v->pid = p->pid;
	memcpy(v->comm, p->comm, sizeof(v->comm));
	v->comm[sizeof(v->comm) - 1] = '\0';
	snprintf(v->name, sizeof(v->name), "%s", p->name[0] ? p->name : v->comm);
}

/* Holds: at threshold t, or while it held (was) at t lowered by the margin */
static bool holds(double value, double t, bool was)
{
	return value >= (was ? t * (1 - VERDICT_MARGIN) : t);
}

static bool have(const struct verdict_proc *p)
{
	return p->pid > 0 && !isnan(p->value);
}

static double ms(double us)
{
	return us / 1000;
}

static bool swap_storm(const struct verdict_signals *s, const struct verdict *prev,
		       struct verdict *v)
{
	char a[16], b[16];

	if (!holds(s->pswpin_s, VERDICT_SWAPIN_PAGES_S, prev->cause == VERDICT_SWAP_STORM))
		return false;
	v->cause = VERDICT_SWAP_STORM;
	say(v, "swap-in storm: %.0f pages/s swapped in", s->pswpin_s);
	fact(v, "pswpin_per_s", s->pswpin_s);
	if (have(&s->swapped) && s->swapped.value > 0) {
		name(v, &s->swapped);
		say(v, ", %.0f/s of them by %d %s", s->swapped.value, v->pid, v->name);
		fact(v, "swapin_per_s", s->swapped.value);
	}
	if (s->swap_total_kb > 0 && !isnan(s->swap_free_kb)) {
		double used = s->swap_total_kb - s->swap_free_kb;
		say(v, "; swap %s of %s used", size(used, a, sizeof(a)),
		    size(s->swap_total_kb, b, sizeof(b)));
		fact(v, "swap_used_kb", used);
	}
	return true;
}

/* Whether cgroup c is near its limit by its share (what has no time): pct, the share that
 * counts */
static bool pressing(const struct verdict_cgroup *c, double pct_min)
{
	if (!(c->limit_kb > 0) || isnan(c->usage_kb))
		return false;
	double pct = 100 * c->usage_kb / c->limit_kb;
	double kept = c->usage_kb - (isnan(c->file_kb) ? 0 : c->file_kb);
	if (100 * kept / c->limit_kb >= pct_min)
		return true;
	return pct >= pct_min && ((isnan(c->eta_s) && (c->grow_kb_s >= VERDICT_GROW_KB_S ||
						       c->top.value >= VERDICT_GROW_KB_S)) ||
				  c->stall_us_s >= VERDICT_CG_STALL_US_S);
}

static double share(const struct verdict_cgroup *c)
{
	return c->usage_kb / c->limit_kb;
}

static bool named(const struct verdict *prev, const struct verdict_cgroup *c)
{
	return prev->limit == VL_CGROUP && c->path && !strcmp(prev->path, c->path);
}

/* Cgroup c's time to run out by rule 2; INFINITY: it does not. One near its limit is
 * near (VERDICT_NEAR_S) or sooner: at once when it stalls in reclaim there, and, before
 * its forecast is known, its headroom at the rate it or its fastest grower grows */
static double cg_time(const struct verdict_cgroup *c, const struct verdict *prev)
{
	double t = c->eta_s >= 0 && c->eta_s < VERDICT_HORIZON_S ? c->eta_s : INFINITY;

	if (!pressing(c, VERDICT_CG_PCT - (named(prev, c) ? VERDICT_CG_PCT_MARGIN : 0)))
		return t;
	if (c->stall_us_s >= VERDICT_CG_STALL_US_S)
		return 0;
	double near = VERDICT_NEAR_S;
	double grow = fmax(c->grow_kb_s, have(&c->top) ? c->top.value : NAN);
	if (isnan(c->eta_s) && grow >= VERDICT_GROW_KB_S)
		near = fmin(near, fmax(0, c->limit_kb - c->usage_kb) / grow);
	return fmin(t, near);
}

/* The machine's: its forecast, and MemAvailable under its floor counts as near */
static double machine_time(const struct verdict_signals *s)
{
	double t = s->exhaustion_s >= 0 && s->exhaustion_s < VERDICT_HORIZON_S ? s->exhaustion_s
									       : INFINITY;

	if (s->mem_total_kb > 0 && 100 * s->mem_available_kb / s->mem_total_kb < VERDICT_AVAIL_PCT)
		t = fmin(t, VERDICT_NEAR_S);
	return t;
}

static void cgroup_limit(const struct verdict_cgroup *c, struct verdict *v)
{
	char a[16], b[16], shown[CG_NAME_MAX];

	double pct = 100 * c->usage_kb / c->limit_kb;
	v->cause = VERDICT_CGROUP_LIMIT;
	v->limit = VL_CGROUP;
	v->secs = c->eta_s >= 0 ? c->eta_s : NAN;
	snprintf(v->path, sizeof(v->path), "%s", c->path ? c->path : "");
	/* its container's name, else its path with its end kept */
	cg_display_name(c->name, v->path, shown, sizeof(shown), VERDICT_CG_NAME);
	say(v, "%s %.0f%% of %s%s", shown, floor(pct), size(c->limit_kb, a, sizeof(a)),
	    c->high ? " (memory.high)" : "");
	fact(v, "usage_kb", c->usage_kb);
	fact(v, "limit_kb", c->limit_kb);
	fact(v, "usage_pct", pct);
	/* its growth, else its fastest grower's, and who grows */
	bool top = have(&c->top) && c->top.value >= VERDICT_GROW_KB_S;
	double grow = c->grow_kb_s >= VERDICT_GROW_KB_S ? c->grow_kb_s : top ? c->top.value : NAN;
	if (!isnan(grow))
		say(v, ", +%s/s", size(grow, b, sizeof(b)));
	fact(v, "growth_kb_per_s", c->grow_kb_s);
	if (top) {
		name(v, &c->top);
		say(v, " from %d %s%s", v->pid, v->name, c->top.leak ? ", a leak suspect" : "");
		fact(v, "process_growth_kb_per_s", c->top.value);
	} else if (c->young.pid > 0 && !isnan(grow)) { /* too young for GROW: its age */
		name(v, &c->young);
		say(v, ", young %d %s (%.0f s old)", v->pid, v->name, floor(c->young.age_s));
		fact(v, "process_age_s", c->young.age_s);
	} else if (c->victim.pid) { /* none known to grow: the one its OOM kill would take */
		name(v, &c->victim);
		say(v, "; victim %d %s", v->pid, v->name);
	}
	if (c->eta_s >= 0) {
		say(v, "; reaches it in %s", when(c->eta_s, b, sizeof(b)));
		fact(v, "time_to_limit_s", c->eta_s);
	}
	if (c->stall_us_s >= VERDICT_CG_STALL_US_S) {
		say(v, "; reclaim stalls %.0f ms/s in it", ms(c->stall_us_s));
		fact(v, "reclaim_stall_us_per_s", c->stall_us_s);
	}
	/* the action that fits, by the cgroup screen's key (C), not taken */
	if (c->version == 2)
		say(v, c->high ? "; memory.high throttles it: key H on C changes it"
			       : "; throttle it with memory.high: key H on C");
	else if (c->version == 1)
		say(v, "; v1 cannot throttle: raise its limit with key L on C");
}

enum grower { G_NONE, G_PROC, G_SLAB, G_SHMEM, G_KEPT };

/* What grows fastest on the machine; what the previous verdict named holds until another
 * grows faster by the margin */
static enum grower grower(const struct verdict_signals *s, const struct verdict *prev)
{
	double proc = have(&s->grower) ? s->grower.value : -INFINITY;
	double most = fmax(fmax(proc, s->slab_grow_kb_s), s->shmem_grow_kb_s);
	enum grower g = !(most >= VERDICT_GROW_KB_S) ? G_NONE
			: most == proc		     ? G_PROC
			: most == s->slab_grow_kb_s  ? G_SLAB
						     : G_SHMEM;
	double was = prev->cause == VERDICT_SLAB_GROWTH	   ? s->slab_grow_kb_s
		     : prev->cause == VERDICT_SHMEM_GROWTH ? s->shmem_grow_kb_s
		     : prev->cause == VERDICT_SYSTEM_LEAK && prev->pid && have(&s->kept) &&
				     s->kept.pid == prev->pid
			     ? s->kept.value
			     : NAN;
	if (!(was >= VERDICT_GROW_KB_S) || most > was * (1 + VERDICT_MARGIN))
		return g;
	return prev->cause == VERDICT_SLAB_GROWTH    ? G_SLAB
	       : prev->cause == VERDICT_SHMEM_GROWTH ? G_SHMEM
						     : G_KEPT;
}

/* The machine runs out first: what grows, and how soon */
static void machine(const struct verdict_signals *s, const struct verdict *prev, double t,
		    struct verdict *v)
{
	enum grower g = grower(s, prev);
	const struct verdict_proc *p = g == G_KEPT ? &s->kept : &s->grower;
	char a[16], b[16];

	v->cause = VERDICT_SYSTEM_LEAK;
	v->limit = VL_MACHINE;
	v->secs = s->exhaustion_s >= 0 ? s->exhaustion_s : NAN;
	if (g == G_PROC || g == G_KEPT) {
		name(v, p);
		say(v, "%d %s grows +%s/s%s; ", v->pid, v->name, size(p->value, a, sizeof(a)),
		    p->leak ? ", a leak suspect" : "");
		fact(v, "growth_kb_per_s", p->value);
	} else if (g != G_NONE) {
		bool slab = g == G_SLAB;
		double kb_s = slab ? s->slab_grow_kb_s : s->shmem_grow_kb_s;
		v->cause = slab ? VERDICT_SLAB_GROWTH : VERDICT_SHMEM_GROWTH;
		say(v, "%s grows +%s/s to %s; ", slab ? "Slab" : "Shmem", size(kb_s, a, sizeof(a)),
		    size(slab ? s->slab_kb : s->shmem_kb, b, sizeof(b)));
		fact(v, "growth_kb_per_s", kb_s);
		fact(v, slab ? "slab_kb" : "shmem_kb", slab ? s->slab_kb : s->shmem_kb);
	} else if (s->young.pid > 0) { /* too young for GROW: its size and age */
		name(v, &s->young);
		say(v, "young %d %s holds %s at %.0f s old; ", v->pid, v->name,
		    size(s->young.size_kb, a, sizeof(a)), floor(s->young.age_s));
		fact(v, "process_age_s", s->young.age_s);
	}
	bool near = t <= VERDICT_NEAR_S;
	if (s->exhaustion_s >= 0) {
		say(v, "memory %s", near ? "runs short, " : "");
		if (s->shrink_kb_s < 0)
			say(v, "shrinks %s/s, %s at this rate", size(-s->shrink_kb_s, a, sizeof(a)),
			    when(s->exhaustion_s, b, sizeof(b)));
		else
			say(v, "lasts %s at the rate it shrank",
			    when(s->exhaustion_s, b, sizeof(b)));
		fact(v, "exhaustion_s", s->exhaustion_s);
		fact(v, "shrink_kb_per_s", -s->shrink_kb_s);
	} else {
		say(v, "memory runs short");
	}
	if (g == G_NONE && !v->pid && near)
		say(v, ", no process known to grow");
	say(v, "; %s of %s available", size(s->mem_available_kb, a, sizeof(a)),
	    size(s->mem_total_kb, b, sizeof(b)));
	fact(v, "mem_available_kb", s->mem_available_kb);
}

/* Rule 2: the limit that runs out first; the one named before holds unless another runs
 * out sooner by the margin */
static bool limits(const struct verdict_signals *s, const struct verdict *prev, struct verdict *v)
{
	double best = machine_time(s), kept = prev->limit == VL_MACHINE ? best : INFINITY;
	long at = -1, kept_at = -1; /* -1: the machine */

	for (size_t i = 0; i < s->ncg; i++) {
		double t = cg_time(&s->cg[i], prev);
		if (t < best ||
		    (t == best && at >= 0 && isfinite(t) && share(&s->cg[i]) > share(&s->cg[at]))) {
			best = t;
			at = (long)i;
		}
		if (named(prev, &s->cg[i]) && t < kept) {
			kept = t;
			kept_at = (long)i;
		}
	}
	if (isinf(best))
		return false;
	if (isfinite(kept) && !(best < kept * (1 - VERDICT_MARGIN))) {
		best = kept;
		at = kept_at;
	}
	if (at >= 0)
		cgroup_limit(&s->cg[at], v);
	else
		machine(s, prev, best, v);
	return true;
}

static bool reclaim_stall(const struct verdict_signals *s, const struct verdict *prev,
			  struct verdict *v)
{
	bool bpf = !isnan(s->stall_us_s), was = prev->cause == VERDICT_RECLAIM_STALL;

	if (bpf ? !holds(s->stall_us_s, VERDICT_STALL_US_S, was)
		: !holds(s->allocstall_s, VERDICT_ALLOCSTALL_S, was))
		return false;
	v->cause = VERDICT_RECLAIM_STALL;
	if (bpf)
		say(v, "reclaim stalls %.0f ms/s", ms(s->stall_us_s));
	else
		say(v, "%.0f allocations/s stall in direct reclaim", s->allocstall_s);
	fact(v, "stall_us_per_s", s->stall_us_s);
	fact(v, "allocstall_per_s", s->allocstall_s);
	if (have(&s->staller) && s->staller.value > 0) {
		name(v, &s->staller);
		say(v, ", %.0f ms/s in %d %s", ms(s->staller.value), v->pid, v->name);
		fact(v, "process_stall_us_per_s", s->staller.value);
	}
	return true;
}

void verdict_rank(const struct verdict_signals *s, struct verdict *v)
{
	struct verdict prev = {.cause = VERDICT_NONE};
	char a[16], b[16];

	if (s->prev)
		prev = *s->prev;
	memset(v, 0, sizeof(*v));
	v->secs = NAN;
	if (swap_storm(s, &prev, v) || limits(s, &prev, v) || reclaim_stall(s, &prev, v))
		return;
	v->cause = VERDICT_NONE;
	say(v, "nothing wrong: %s of %s available", size(s->mem_available_kb, a, sizeof(a)),
	    size(s->mem_total_kb, b, sizeof(b)));
	fact(v, "mem_available_kb", s->mem_available_kb);
	fact(v, "mem_total_kb", s->mem_total_kb);
}
