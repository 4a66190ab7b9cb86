#include "graphs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "history.h"
#include "sysfig.h"
#include "util.h"

/* The windows ( and ) step through; 0: the graph's width in dots times the interval */
static const double zooms[] = {0, 60, 600, 3600};
#define NZOOMS ((int)ARRAY_SIZE(zooms))

/* The graphs' window, the pane's, the screen's and the detail screen's */
struct graphs_state {
	int zoom; /* an index of zooms[] */
};

struct graphs_state graphs_state;
static struct graphs_state *const st = &graphs_state;

bool graph_pane_fits(const struct ui *u)
{
	return u->cv.cols >= GRAPH_PANE_COLS && u->cv.rows >= GRAPH_PANE_ROWS;
}

int graph_pane_rows(const struct ui *u)
{
	return u->prefs->graphs && graph_pane_fits(u) ? GRAPH_PANE_H : 0;
}

void graph_zoom(struct ui *u, int dir)
{
	static const char *const names[] = {"the graph's width times the refresh interval", "1 min",
					    "10 min", "1 h"};
	int z = st->zoom + dir;

	st->zoom = z < 0 ? 0 : z >= NZOOMS ? NZOOMS - 1 : z;
	snprintf(u->message, sizeof(u->message), "graph window: %s", names[st->zoom]);
}

/* The window of points dot columns: as zoomed, else one dot a refresh; no longer than the
 * history holds, and, while it holds less, the shorter of that and a minute (the line
 * then starts part way across). Sets *t1, the newest sample's time; 0 when empty. */
static double window_of(const struct ui *u, size_t points, double *t1, char *note, size_t size)
{
	const struct history *h = u->m->hist;
	double want = zooms[st->zoom] > 0 ? zooms[st->zoom] : (double)points * u->prefs->delay;
	double span = history_newest(h) - history_oldest(h), floor = fmin(want, 60), w = want;
	char a[16];

	*t1 = history_newest(h);
	note[0] = '\0';
	if (span < want) {
		w = fmax(span, floor);
		if (zooms[st->zoom] > 0 && w < want) {
			graph_ago(want, a, sizeof(a));
			snprintf(note, size, " (%s asked)", a + 1);
		}
	}
	return w > 0 ? w : 1;
}

struct sys_series {
	enum sf_id fig;
	const char *name;
	enum role role;
	enum graph_unit unit;
};

/* what holds memory: the available rest (near RAM on an idle machine) would set the scale
 * and flatten the others, and the header shows it */
static const struct sys_series mem_series[] = {
	{SF_MEM_USED, "used", ROLE_GRAPH1, GU_KB},
	{SF_CACHE, "cache", ROLE_GRAPH2, GU_KB},
	{SF_SWAP_USED, "swap", ROLE_GRAPH4, GU_KB},
};

static const struct sys_series vm_series[] = {
	{SF_PGFAULT_RATE, "faults/s", ROLE_GRAPH1, GU_RATE},
	{SF_PSWPIN_RATE, "swap-in/s", ROLE_GRAPH2, GU_RATE},
	{SF_STALL, "stall us/s", ROLE_GRAPH4, GU_RATE},
	{SF_PSI_SOME, "PSI some", ROLE_GRAPH3, GU_AVG},
};

/* A series of a graph, and where its points come from: a system figure (fig, by its index),
 * a process's column (col of pid, start) or a slab cache's size (slab, its name) */
struct series_src {
	const char *name;
	enum role role;
	enum graph_unit unit;
	long fig;
	int col;
	int32_t pid;
	uint64_t start;
	const char *slab;
};

/* A graph of the series src[0..ns) in w x h at y, x, over the window of its width; ref a
 * value dotted across a shared scale where it is in range (0: none). A graph narrower
 * than the screen is one of two side by side: both keep two lines for their legends
 * (one where short), so that their plots line up. */
static void graph_of(struct ui *u, const char *title, const struct series_src *src, int ns,
		     bool own_scale, double ref, int y, int x, int w, int h)
{
	size_t n = graph_points(w, u->cv.utf8);
	double t1, *buf = xcalloc(n * (size_t)ns + 1, sizeof(double));
	char note[48], full[96];
	struct graph g = {.title = full,
			  .ns = ns,
			  .n = n,
			  .own_scale = own_scale,
			  .ref = ref,
			  .legend_lines = w >= u->cv.cols ? 0
					  : h >= 8	  ? 2
							  : 1};

	g.window = window_of(u, n, &t1, note, sizeof(note));
	snprintf(full, sizeof(full), "%s%s", title, note);
	for (int i = 0; i < ns; i++) {
		double *v = buf + (size_t)i * n;
		for (size_t k = 0; k < n; k++)
			v[k] = NAN;
		if (t1 > 0 && src[i].fig >= 0)
			history_sys_series(u->m->hist, (size_t)src[i].fig, t1 - g.window, t1, v, n);
		else if (t1 > 0 && src[i].pid)
			history_proc_series(u->m->hist, src[i].pid, src[i].start, src[i].col,
					    t1 - g.window, t1, v, n);
		else if (t1 > 0 && src[i].slab)
			history_slab_series(u->m->hist, src[i].slab, t1 - g.window, t1, v, n);
		g.s[i] = (struct graph_series){.name = src[i].name, .v = v, .role = src[i].role};
		g.unit[i] = src[i].unit;
	}
	graph_draw(&u->cv, &g, y, x, w, h);
	free(buf);
}

/* A graph of system figures in w x h at y, x */
static void sys_graph(struct ui *u, const char *title, const struct sys_series *ss, int ns,
		      bool own_scale, int y, int x, int w, int h)
{
	struct series_src src[GRAPH_MAX_SERIES];
	const struct snapshot *s = model_current(u->m);

	for (int i = 0; i < ns && i < GRAPH_MAX_SERIES; i++)
		src[i] = (struct series_src){.name = ss[i].name,
					     .role = ss[i].role,
					     .unit = ss[i].unit,
					     .fig = ss[i].fig};
	/* memory scaled to what it shows, RAM dotted where that is in range */
	graph_of(u, title, src, ns < GRAPH_MAX_SERIES ? ns : GRAPH_MAX_SERIES, own_scale,
		 !own_scale && s ? (double)s->mem[MI_MEM_TOTAL] : 0, y, x, w, h);
}

void sys_graphs_draw(struct ui *u, int y, int h, bool side_by_side)
{
	int cols = u->cv.cols;

	if (side_by_side) {
		int w = (cols - 1) / 2;
		sys_graph(u, "Memory", mem_series, (int)ARRAY_SIZE(mem_series), false, y, 0, w, h);
		sys_graph(u, "Activity", vm_series, (int)ARRAY_SIZE(vm_series), true, y, w + 1,
			  cols - w - 1, h);
	} else {
		int h1 = h / 2;
		sys_graph(u, "Memory", mem_series, (int)ARRAY_SIZE(mem_series), false, y, 0, cols,
			  h1);
		sys_graph(u, "Activity", vm_series, (int)ARRAY_SIZE(vm_series), true, y + h1, 0,
			  cols, h - h1);
	}
}

/* A graph of history columns of one process */
static void proc_graph(struct ui *u, int32_t pid, uint64_t start, const char *title,
		       const int *cols, const char *const *names, const enum role *roles, int ns,
		       enum graph_unit unit, bool own_scale, int y, int x, int w, int h)
{
	struct series_src src[GRAPH_MAX_SERIES];

	for (int i = 0; i < ns && i < GRAPH_MAX_SERIES; i++)
		src[i] = (struct series_src){.name = names[i],
					     .role = roles[i],
					     .unit = unit,
					     .fig = -1,
					     .col = cols[i],
					     .pid = pid,
					     .start = start};
	graph_of(u, title, src, ns < GRAPH_MAX_SERIES ? ns : GRAPH_MAX_SERIES, own_scale, 0, y, x,
		 w, h);
}

void proc_graphs_draw(struct ui *u, int32_t pid, uint64_t start_ticks, int y, int h)
{
	static const int mem[] = {COL_RSS, COL_SWAP}, flt[] = {COL_MINFLT, COL_MAJFLT};
	static const char *const mem_names[] = {"RSS", "swap"}, *const flt_names[] = {"minor/s",
										      "major/s"};
	static const enum role mem_roles[] = {ROLE_GRAPH1, ROLE_GRAPH4},
			       flt_roles[] = {ROLE_GRAPH2, ROLE_GRAPH4};
	int cols = u->cv.cols;

	if (cols >= GRAPH_PANE_COLS) {
		int w = (cols - 1) / 2;
		proc_graph(u, pid, start_ticks, "Memory", mem, mem_names, mem_roles, 2, GU_KB,
			   false, y, 0, w, h);
		proc_graph(u, pid, start_ticks, "Page faults", flt, flt_names, flt_roles, 2,
			   GU_RATE, true, y, w + 1, cols - w - 1, h);
	} else {
		int h1 = h / 2;
		proc_graph(u, pid, start_ticks, "Memory", mem, mem_names, mem_roles, 2, GU_KB,
			   false, y, 0, cols, h1);
		proc_graph(u, pid, start_ticks, "Page faults", flt, flt_names, flt_roles, 2,
			   GU_RATE, true, y + h1, 0, cols, h - h1);
	}
}

void slab_graph_draw(struct ui *u, const char *name, int y, int h)
{
	struct series_src src = {
		.name = "size", .role = ROLE_GRAPH1, .unit = GU_KB, .fig = -1, .slab = name};
	char title[96];
	bool kept = false;

	for (size_t i = 0; u->m->hist && i < history_slab_count(u->m->hist); i++)
		kept |= !strcmp(history_slab_name(u->m->hist, i), name);
	snprintf(title, sizeof(title), "Slab cache %s%s", name,
		 kept ? "" : ": not kept (only the largest are)");
	graph_of(u, title, &src, 1, false, 0, y, 0, u->cv.cols, h);
}

/* ---- the screen of their own, on a terminal too small for the pane ---- */

enum { GK_BACK = 1, GK_SHORTER, GK_LONGER };

const struct binding graph_keys[] = {
	{GK_BACK, {27, 'q', 'g', KEY_F(10)}, "Esc q g", "back to the table"},
	{GK_SHORTER, {'(', '[', 0}, "( [", "shorter graph window"},
	{GK_LONGER, {')', ']', 0}, ") ]", "longer graph window"},
	{0, {0}, NULL, NULL},
};

struct reaction graphs_act(struct ui *u, int a)
{
	if (a == GK_BACK) {
		u->message[0] = '\0';
		u->screen = SCREEN_MAIN;
	} else {
		graph_zoom(u, a == GK_SHORTER ? -1 : 1);
	}
	return reacts(REACT_NONE);
}

void graphs_draw(struct ui *u)
{
	const struct canvas *cv = &u->cv;

	put_text(cv, 0, 0, cv->cols, ROLE_HELP_TITLE, "Memory and activity over time", true);
	sys_graphs_draw(u, 1, cv->rows - 2, false);
	put_text(cv, cv->rows - 1, 0, cv->cols, ROLE_STATUS,
		 u->message[0] ? u->message : "Esc/q/g back  ( ) graph window", true);
}
