/* The post-mortem of an OOM kill (Enter on a kill in the OOM pane): what memtop saw at its
 * last refresh before it, from m->before[]: free memory then; for a kill in a limited
 * memory cgroup, that cgroup's usage of its limit, its OOM kills, the verdict then and its
 * processes by growth; the processes largest and fastest growing; and as graphs, the
 * victim's RSS over the minute before and the cgroup's usage at every refresh held, its
 * limit dotted. Plain lines, scrolled like the panes, the graphs below them side by side. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "cgcolumns.h"
#include "graph.h"
#include "oom_list.h"
#include "oom_cgroup.h"
#include "panes.h"
#include "text.h"
#include "util.h"

#define add pane_add

#define PM_KEYS	   "Esc/q back to the OOM kills  Up/Down/PgUp/PgDn scroll"
#define PM_GRAPH_H 10 /* the graphs, on terminals of at least 24 rows */

/* The kill shown in the kills listed (oom_list.h), or -1 when it is no longer kept */
static long shown(struct ui *u, struct oom_item *list)
{
	size_t n = oom_list(u, list);

	return oom_list_find(list, n, panes_state.pm_ts, panes_state.pm_pid);
}

/* Whether the victim's curve has a value */
static bool seen(const struct oom_before *b)
{
	for (int i = 0; i < OOM_BEFORE_CURVE; i++)
		if (!isnan(b->victim_rss_kb[i]))
			return true;
	return false;
}

static void top_lines(struct pane *p, const struct oom_top *t, size_t n, bool utf8)
{
	add(p, ROLE_TABLE_HEADER, "%7s %-16s %6s %9s", "PID", "NAME", "RSS", "GROWTH/MIN");
	if (!n)
		add(p, ROLE_ROW_DIM, "no processes");
	for (size_t i = 0; i < n; i++) {
		char comm[80], rss[16], grow[16];
		escape_display(t[i].comm, comm, sizeof(comm), utf8);
		fmt_kb(t[i].rss_kb, rss, sizeof(rss));
		if (isnan(t[i].growth_kb_per_min))
			snprintf(grow, sizeof(grow), "-");
		else
			fmt_skb(t[i].growth_kb_per_min, grow, sizeof(grow));
		add(p, ROLE_ROW, "%7d %-16.16s %6s %9s", t[i].pid, comm, rss, grow);
	}
}

/* A count the kernel gave, "-" where it was not read */
static void count(int64_t v, char *buf, size_t size)
{
	if (v < 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%lld", (long long)v);
}

/* The limited cgroup the kill was in: its usage of its limit, its kills, the verdict then,
 * its processes */
static void cgroup_lines(const struct ui *u, const struct oom_cgroup *cg, struct pane *p)
{
	char path[512], use[16], lim[16], was[24], now[24], verdict[VERDICT_TEXT * 4];

	char shown[CG_NAME_MAX];
	/* its container's name, else its path, cut in the middle */
	cg_display_name(cg->name, cg->path, shown, sizeof(shown), 60);
	escape_display(shown, path, sizeof(path), u->cv.utf8);
	fmt_kb(cg->usage_kb, use, sizeof(use));
	fmt_kb(cg->limit_kb, lim, sizeof(lim));
	count(cg->oom_kills_before, was, sizeof(was));
	count(cg->oom_kills_after, now, sizeof(now));
	add(p, ROLE_VALUE, "Cgroup %s: %s of %s (%.0f %%)   its OOM kills: %s before, %s after",
	    path, use, lim, cg->limit_kb ? 100.0 * (double)cg->usage_kb / (double)cg->limit_kb : 0,
	    was, now);
	escape_display(cg->verdict, verdict, sizeof(verdict), u->cv.utf8);
	add(p, ROLE_LABEL, "verdict then: %s", cg->verdict[0] ? verdict : "none made yet");
	add(p, ROLE_ROW, " ");
	add(p, ROLE_HELP_TITLE, "the cgroup's processes by growth (%zu of %zu)", cg->nprocs,
	    cg->ntasks);
	top_lines(p, cg->procs, cg->nprocs, u->cv.utf8);
	add(p, ROLE_ROW, " ");
}

static void lines(const struct ui *u, const struct mt_event *e, const struct oom_before *b,
		  struct pane *p)
{
	char comm[PROC_NAME_SIZE * 4], when[16], a[16], s[16];
	const char *name = b->victim_name[0] ? b->victim_name : e->comm;

	escape_display(name, comm, sizeof(comm), u->cv.utf8);
	add(p, ROLE_WARNING, "victim: pid %d (%s)", e->pid, comm);
	char line[512];
	fmt_oom_line_named(e, name, line, sizeof(line), u->cv.utf8);
	add(p, ROLE_ROW, "%s", line);
	add(p, ROLE_ROW, " ");
	if (!b->valid) {
		add(p, ROLE_WARNING,
		    "memtop saw nothing before this kill (it came before memtop "
		    "started, or before its first refresh)");
		return;
	}
	fmt_clock(b->wall, when, sizeof(when));
	add(p, ROLE_LABEL, "before: memtop's refresh at %s, %.1f s before the kill", when,
	    b->since);
	fmt_kb(b->mem_available_kb, a, sizeof(a));
	fmt_kb(b->swap_free_kb, s, sizeof(s));
	if (b->swap_total_kb)
		add(p, ROLE_VALUE, "MemAvailable %s   SwapFree %s", a, s);
	else
		add(p, ROLE_VALUE, "MemAvailable %s   no swap", a);
	add(p, ROLE_ROW, " ");
	if (b->cg)
		cgroup_lines(u, b->cg, p);
	add(p, ROLE_HELP_TITLE, "top by RSS");
	top_lines(p, b->top, b->ntop, u->cv.utf8);
	add(p, ROLE_ROW, " ");
	add(p, ROLE_HELP_TITLE, "top by growth");
	top_lines(p, b->grow, b->ngrow, u->cv.utf8);
	if (!seen(b)) {
		add(p, ROLE_ROW, " ");
		add(p, ROLE_ROW_DIM,
		    "the victim's RSS: memtop did not see it in the minute before");
	}
}

/* The victim's RSS over the minute before, in w columns at x */
static void curve(struct ui *u, const struct oom_before *b, int y, int x, int w, int h)
{
	double v[OOM_BEFORE_CURVE];
	struct graph g = {.title = "Victim's RSS before the kill",
			  .ns = 1,
			  .n = OOM_BEFORE_CURVE,
			  .window = OOM_BEFORE_CURVE - 1,
			  .end = "last refresh",
			  .legend_lines = w < u->cv.cols ? 2 : 0};

	for (int i = 0; i < OOM_BEFORE_CURVE; i++)
		v[i] = b->victim_rss_kb[i];
	g.s[0] = (struct graph_series){.name = "RSS", .v = v, .role = ROLE_GRAPH4};
	g.unit[0] = GU_KB;
	graph_draw(&u->cv, &g, y, x, w, h);
}

/* The cgroup's usage at every refresh held, on a grid as fine as the plot (each point the
 * sample at or before it), its limit dotted; in w columns at x */
static void cgroup_curve(struct ui *u, const struct oom_cgroup *cg, int y, int x, int w, int h)
{
	size_t n = graph_points(w, u->cv.utf8), k = 0;
	double *v = xcalloc(n, sizeof(double)), t0 = cg->t[0], span = cg->t[cg->n - 1] - t0;
	char lim[16], title[48];
	fmt_kb(cg->limit_kb, lim, sizeof(lim));
	snprintf(title, sizeof(title), "Cgroup's usage, its limit %s", lim);
	struct graph g = {.title = title,
			  .ns = 1,
			  .n = n,
			  .ref = (double)cg->limit_kb,
			  .window = span,
			  .end = "last refresh",
			  .legend_lines = w < u->cv.cols ? 2 : 0};

	for (size_t i = 0; i < n; i++) {
		double at = n > 1 ? t0 + span * (double)i / (double)(n - 1) : t0 + span;
		while (k + 1 < cg->n && cg->t[k + 1] <= at + 1e-6)
			k++;
		v[i] = cg->usage_kb_at[k];
	}
	g.s[0] = (struct graph_series){.name = "usage", .v = v, .role = ROLE_GRAPH1};
	g.unit[0] = GU_KB;
	graph_draw(&u->cv, &g, y, x, w, h);
	free(v);
}

/* The victim's graph and the cgroup's, side by side where both are drawn */
static void graphs(struct ui *u, const struct oom_before *b, int y, int h)
{
	int w = u->cv.cols, half = seen(b) && b->cg ? w / 2 : w;

	if (seen(b))
		curve(u, b, y, 0, half, h);
	if (b->cg)
		cgroup_curve(u, b->cg, y, w - half, half, h);
}

void pm_draw(struct ui *u)
{
	static struct pane p;
	const struct canvas *cv = &u->cv;
	struct oom_item list[OOM_LIST_MAX];
	long i = shown(u, list);
	char title[160], comm[80], when[16];

	p.n = 0;
	if (i < 0) {
		snprintf(title, sizeof(title), "OOM kill post-mortem");
		add(&p, ROLE_WARNING, "this kill is no longer kept (the newest %d are)",
		    MODEL_OOM_HISTORY);
	} else {
		const struct mt_event *e = list[i].e;
		escape_display(e->comm, comm, sizeof(comm), cv->utf8);
		fmt_clock(e->ts, when, sizeof(when));
		snprintf(title, sizeof(title), "OOM kill post-mortem: %d (%s) killed at %s", e->pid,
			 comm, when);
		lines(u, e, list[i].b, &p);
	}
	const struct oom_before *b = i >= 0 ? list[i].b : NULL;
	bool graph = b && b->valid && (seen(b) || b->cg) && cv->rows >= 24;
	int room = cv->rows - 2 - (graph ? PM_GRAPH_H + 1 : 0);
	if (panes_state.top > p.n - room)
		panes_state.top = p.n - room > 0 ? p.n - room : 0;
	put_text(cv, 0, 0, cv->cols, ROLE_HELP_TITLE, title, false);
	for (int k = 0; k < room && panes_state.top + k < p.n; k++)
		put_text(cv, 1 + k, 0, cv->cols, p.role[panes_state.top + k],
			 p.text[panes_state.top + k], true);
	if (graph)
		graphs(u, b, cv->rows - 1 - PM_GRAPH_H, PM_GRAPH_H);
	put_text(cv, cv->rows - 1, 0, cv->cols, ROLE_STATUS, PM_KEYS, true);
}

enum { PM_BACK = 1 };

const struct binding pm_keys[] = {
	{PM_BACK, {27, 'q', KEY_F(10), KEY_BACKSPACE}, "Esc q", "back to the OOM kills"},
	{0, {0}, NULL, NULL},
};

/* back to the OOM kills, on the same line */
struct reaction pm_act(struct ui *u, int a)
{
	(void)a;
	u->screen = SCREEN_OOM;
	return reacts(REACT_NONE);
}
