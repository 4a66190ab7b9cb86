/* The post-mortem of an OOM kill (Enter on a kill in the OOM pane): what memtop saw at its
 * last refresh before it, from m->before[]: free memory then, the processes largest and
 * fastest growing, and the victim's RSS over the minute before, as a graph. Plain lines,
 * scrolled like the panes, the graph below them. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cells.h"
#include "graph.h"
#include "panes.h"
#include "text.h"

#define add pane_add

#define PM_KEYS	   "Esc/q back to the OOM kills  Up/Down/PgUp/PgDn scroll"
#define PM_GRAPH_H 10 /* the victim's curve, on terminals of at least 24 rows */

/* The index in m->oom of the kill shown, or -1 when it is no longer kept */
static long shown(const struct ui *u)
{
	for (size_t i = 0; i < u->m->noom; i++)
		if (u->m->oom[i].ts == panes_state.pm_ts && u->m->oom[i].pid == panes_state.pm_pid)
			return (long)i;
	return -1;
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

static void lines(const struct ui *u, const struct mt_event *e, const struct oom_before *b,
		  struct pane *p)
{
	char comm[80], when[16], a[16], s[16];

	escape_display(e->comm, comm, sizeof(comm), u->cv.utf8);
	add(p, ROLE_WARNING, "victim: pid %d (%s)", e->pid, comm);
	char line[512];
	fmt_oom_line(e, line, sizeof(line), u->cv.utf8);
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
	add(p, ROLE_VALUE, "MemAvailable %s   SwapFree %s", a, s);
	add(p, ROLE_ROW, " ");
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

static void curve(struct ui *u, const struct oom_before *b, int y, int h)
{
	double v[OOM_BEFORE_CURVE];
	struct graph g = {.title = "Victim's RSS before the kill",
			  .ns = 1,
			  .n = OOM_BEFORE_CURVE,
			  .window = OOM_BEFORE_CURVE - 1,
			  .end = "last refresh"};

	for (int i = 0; i < OOM_BEFORE_CURVE; i++)
		v[i] = b->victim_rss_kb[i];
	g.s[0] = (struct graph_series){.name = "RSS", .v = v, .role = ROLE_GRAPH4};
	g.unit[0] = GU_KB;
	graph_draw(&u->cv, &g, y, 0, u->cv.cols, h);
}

void pm_draw(struct ui *u)
{
	static struct pane p;
	const struct canvas *cv = &u->cv;
	long i = shown(u);
	char title[160], comm[80], when[16];

	p.n = 0;
	if (i < 0) {
		snprintf(title, sizeof(title), "OOM kill post-mortem");
		add(&p, ROLE_WARNING, "this kill is no longer kept (the newest %d are)",
		    MODEL_OOM_HISTORY);
	} else {
		const struct mt_event *e = &u->m->oom[i];
		escape_display(e->comm, comm, sizeof(comm), cv->utf8);
		fmt_clock(e->ts, when, sizeof(when));
		snprintf(title, sizeof(title), "OOM kill post-mortem: %d (%s) killed at %s", e->pid,
			 comm, when);
		lines(u, e, &u->m->before[i], &p);
	}
	bool graph = i >= 0 && u->m->before[i].valid && seen(&u->m->before[i]) && cv->rows >= 24;
	int room = cv->rows - 2 - (graph ? PM_GRAPH_H + 1 : 0);
	if (panes_state.top > p.n - room)
		panes_state.top = p.n - room > 0 ? p.n - room : 0;
	put_text(cv, 0, 0, cv->cols, ROLE_HELP_TITLE, title, false);
	for (int k = 0; k < room && panes_state.top + k < p.n; k++)
		put_text(cv, 1 + k, 0, cv->cols, p.role[panes_state.top + k],
			 p.text[panes_state.top + k], true);
	if (graph)
		curve(u, &u->m->before[i], cv->rows - 1 - PM_GRAPH_H, PM_GRAPH_H);
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
