/* The verdict's ranking (the rules are in verdict.h) and its line of text */
#include "verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
}

static bool have(const struct verdict_proc *p)
{
	return p->pid > 0 && !isnan(p->value);
}

static double ms(double us)
{
	return us / 1000;
}

static bool swap_storm(const struct verdict_signals *s, struct verdict *v)
{
	char a[16], b[16];

	if (!(s->pswpin_s >= VERDICT_SWAPIN_PAGES_S))
		return false;
	v->cause = VERDICT_SWAP_STORM;
	say(v, "swap-in storm: %.0f pages/s swapped in", s->pswpin_s);
	fact(v, "pswpin_per_s", s->pswpin_s);
	if (have(&s->swapped) && s->swapped.value > 0) {
		name(v, &s->swapped);
		say(v, ", %.0f/s of them by %d %s", s->swapped.value, v->pid, v->comm);
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

/* Whether cgroup c is near its limit by rule 2 */
static bool pressing(const struct verdict_cgroup *c)
{
	if (!(c->limit_kb > 0) || isnan(c->usage_kb))
		return false;
	double pct = 100 * c->usage_kb / c->limit_kb;
	double kept = c->usage_kb - (isnan(c->file_kb) ? 0 : c->file_kb);
	if (100 * kept / c->limit_kb >= VERDICT_CG_PCT)
		return true;
	return pct >= VERDICT_CG_PCT &&
	       (c->grow_kb_s >= VERDICT_GROW_KB_S || c->top.value >= VERDICT_GROW_KB_S ||
		c->stall_us_s >= VERDICT_CG_STALL_US_S);
}

static bool cgroup_limit(const struct verdict_signals *s, struct verdict *v)
{
	const struct verdict_cgroup *c = NULL;
	char a[16], b[16];

	for (size_t i = 0; i < s->ncg; i++)
		if (pressing(&s->cg[i]) &&
		    (!c || s->cg[i].usage_kb / s->cg[i].limit_kb > c->usage_kb / c->limit_kb))
			c = &s->cg[i];
	if (!c)
		return false;
	double pct = 100 * c->usage_kb / c->limit_kb;
	v->cause = VERDICT_CGROUP_LIMIT;
	snprintf(v->path, sizeof(v->path), "%s", c->path ? c->path : "");
	say(v, "%s %.0f%% of %s", v->path, floor(pct), size(c->limit_kb, a, sizeof(a)));
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
		say(v, " from %d %s", v->pid, v->comm);
		fact(v, "process_growth_kb_per_s", c->top.value);
	} else if (c->victim.pid) { /* none known to grow: the one its OOM kill would take */
		name(v, &c->victim);
		say(v, "; victim %d %s", v->pid, v->comm);
	}
	if (c->eta_s >= 0) {
		say(v, "; reaches it in %s", when(c->eta_s, b, sizeof(b)));
		fact(v, "time_to_limit_s", c->eta_s);
	}
	if (c->stall_us_s >= VERDICT_CG_STALL_US_S) {
		say(v, "; reclaim stalls %.0f ms/s in it", ms(c->stall_us_s));
		fact(v, "reclaim_stall_us_per_s", c->stall_us_s);
	}
	return true;
}

/* Rule 3: the machine runs short, and what grows */
static bool short_of_memory(const struct verdict_signals *s, struct verdict *v)
{
	bool soon = s->exhaustion_s >= 0 && s->exhaustion_s < VERDICT_HORIZON_S;
	bool low = s->mem_total_kb > 0 &&
		   100 * s->mem_available_kb / s->mem_total_kb < VERDICT_AVAIL_PCT;
	char a[16], b[16];

	if (!soon && !low)
		return false;
	double proc = have(&s->grower) ? s->grower.value : NAN;
	double most =
		fmax(fmax(isnan(proc) ? -INFINITY : proc, s->slab_grow_kb_s), s->shmem_grow_kb_s);
	if (!(most >= VERDICT_GROW_KB_S)) {
		v->cause = VERDICT_SYSTEM_LEAK;
		say(v, "memory runs short, no process grows");
	} else if (most == proc) {
		v->cause = VERDICT_SYSTEM_LEAK;
		name(v, &s->grower);
		say(v, "%d %s grows +%s/s", v->pid, v->comm, size(proc, a, sizeof(a)));
		fact(v, "growth_kb_per_s", proc);
	} else {
		bool slab = most == s->slab_grow_kb_s;
		v->cause = slab ? VERDICT_SLAB_GROWTH : VERDICT_SHMEM_GROWTH;
		say(v, "%s grows +%s/s to %s", slab ? "Slab" : "Shmem", size(most, a, sizeof(a)),
		    size(slab ? s->slab_kb : s->shmem_kb, b, sizeof(b)));
		fact(v, "growth_kb_per_s", most);
		fact(v, slab ? "slab_kb" : "shmem_kb", slab ? s->slab_kb : s->shmem_kb);
	}
	if (soon) {
		say(v, "; memory lasts %s", when(s->exhaustion_s, a, sizeof(a)));
		fact(v, "exhaustion_s", s->exhaustion_s);
		fact(v, "shrink_kb_per_s", -s->shrink_kb_s);
	}
	say(v, "; %s of %s available", size(s->mem_available_kb, a, sizeof(a)),
	    size(s->mem_total_kb, b, sizeof(b)));
	fact(v, "mem_available_kb", s->mem_available_kb);
	return true;
}

static bool reclaim_stall(const struct verdict_signals *s, struct verdict *v)
{
	bool bpf = !isnan(s->stall_us_s);

	if (bpf ? !(s->stall_us_s >= VERDICT_STALL_US_S)
		: !(s->allocstall_s >= VERDICT_ALLOCSTALL_S))
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
		say(v, ", %.0f ms/s in %d %s", ms(s->staller.value), v->pid, v->comm);
		fact(v, "process_stall_us_per_s", s->staller.value);
	}
	return true;
}

void verdict_rank(const struct verdict_signals *s, struct verdict *v)
{
	char a[16], b[16];

	memset(v, 0, sizeof(*v));
	if (swap_storm(s, v) || cgroup_limit(s, v) || short_of_memory(s, v) || reclaim_stall(s, v))
		return;
	v->cause = VERDICT_NONE;
	say(v, "nothing wrong: %s of %s available", size(s->mem_available_kb, a, sizeof(a)),
	    size(s->mem_total_kb, b, sizeof(b)));
	fact(v, "mem_available_kb", s->mem_available_kb);
	fact(v, "mem_total_kb", s->mem_total_kb);
}
