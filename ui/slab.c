/* The slab screen: the header, then a row per slab cache (the model's slab rows, in the
 * order slabmodel_order gives for the screen's sort column and filter), the columns of
 * slab_columns. Its sort and filter are prefs->slab (not saved): size first. Enter or g
 * puts a graph of the selected cache's size over time above the table (the history keeps
 * the largest caches' for the hour), ( and ) (or [ and ]) its window, as the processes' graphs. */
#include "slab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "draw_header.h"
#include "graphs.h"
#include "help.h"
#include "prompt.h"
#include "table_screen.h"
#include "util.h"

enum action {
	SL_BACK = TA_COUNT,
	SL_GRAPH,
	SL_SHORTER,
	SL_LONGER,
};

const struct binding slab_keys[] = {
	{TA_UP, {KEY_UP, 0}, "Up", "select the cache above"},
	{TA_DOWN, {KEY_DOWN, 0}, "Down", "select the cache below"},
	{TA_PGUP, {KEY_PPAGE, 0}, "PgUp", "one page up"},
	{TA_PGDN, {KEY_NPAGE, 0}, "PgDn", "one page down"},
	{TA_HOME, {KEY_HOME, 0}, "Home", "first cache"},
	{TA_END, {KEY_END, 0}, "End", "last cache"},
	{TA_SORT_PREV, {'<', ',', 0}, "<", "sort by the left column"},
	{TA_SORT_NEXT, {'>', '.', 0}, ">", "sort by the right column"},
	{TA_SORT_DEFAULT, {'M', 0}, "M", "sort by size"},
	{TA_INVERT, {'I', 0}, "I", "invert the sort order"},
	{TA_FILTER, {'\\', KEY_F(4), 0}, "\\ F4", "filter by name"},
	{SL_GRAPH, {'\n', '\r', KEY_ENTER, 'g'}, "Enter g", "graph its size, or none"},
	{SL_SHORTER, {'(', '[', 0}, "( [", "shorter graph window"},
	{SL_LONGER, {')', ']', 0}, ") ]", "longer graph window"},
	{SL_BACK, {27, 'q', 'B', KEY_F(10)}, "Esc q B", "back to the table"},
	{0, {0}, NULL, NULL},
};

struct slab_state {
	struct flat_order rows; /* the model's rows shown, in order */
	bool graph;		/* the selected cache's graph above the table */
} slab_state;
static struct slab_state *const st = &slab_state;

static const struct slab_model *slabs(const struct ui *u)
{
	return &u->m->slab;
}

/* The rows again, in the screen's order, the selection on the same cache */
static void reorder(struct ui *u);

/* The graph's rows: GRAPH_PANE_H, at most half of what is under the header, none under 5 */
static int graph_rows(const struct ui *u)
{
	int h = (u->cv.rows - header_rows(u) - 2) / 2;

	h = h < GRAPH_PANE_H ? h : GRAPH_PANE_H;
	return st->graph && h >= 5 ? h : 0;
}

static int table_rows(const struct ui *u)
{
	int n = u->cv.rows - header_rows(u) - graph_rows(u) - 2; /* column titles, bottom line */
	return n > 0 ? n : 0;
}

/* A cache is known by its name: FNV-1a */
static uint64_t id_of(const struct ui *u, size_t i)
{
	uint64_t h = 1469598103934665603ull;

	for (const char *p = slabs(u)->rows[st->rows.order[i]].c->name; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return h;
}

static struct table_row row_view(const struct ui *u, size_t i)
{
	return slab_row_view(&slabs(u)->rows[st->rows.order[i]]);
}

/* The table layer moves the selection, sorts and filters by prefs->slab */
const struct table_kind slab_table =
	FLAT_TABLE(TAB_SLABS, SCREEN_SLAB, &st->rows, id_of, table_rows, row_view, slab_columns,
		   SLABCOL_COUNT, SLABCOL_SIZE, "Sort slab caches by");

static void reorder(struct ui *u)
{
	const struct slab_model *sm = slabs(u);
	const struct slab_prefs *p = &u->prefs->slab;

	st->rows.n = slabmodel_order(sm, &(struct slab_order){p->sort, p->invert, p->filter},
				     flat_order_room(&st->rows, sm->n));
	table_reselect(&slab_table, u);
}

size_t slab_shown(void)
{
	return st->rows.n;
}

void slab_done(struct ui *u)
{
	(void)u;
	flat_order_free(&st->rows);
}

/* ---- drawing ---- */

/* Why no row is shown, in one line */
static const char *empty_text(const struct ui *u, char *buf, size_t size)
{
	const char *why = slabmodel_why(slabs(u), buf, size);

	if (why)
		return why;
	if (u->rv.on)
		return "slab: a recording holds no slab caches";
	if (!slabs(u)->read)
		return "Reading /proc/slabinfo...";
	return "No cache's name holds the filter's text (\\ changes it, Esc in it clears it)";
}

void slab_draw(struct ui *u)
{
	static const struct keybar_item keys[] = {
		{"Enter", "Graph", '\n'}, {"F4", "Filter", KEY_F(4)}, {"M", "Size", 'M'},
		{"I", "Invert", 'I'},	  {"Esc", "Back", 27},
	};
	int y = header_rows(u), rows = table_rows(u), pane = graph_rows(u);
	int nw = flat_first_width(u, slab_columns, SLABCOL_COUNT);
	char why[200];

	reorder(u);
	draw_header(u);
	if (pane && st->rows.n)
		slab_graph_draw(u, slabs(u)->rows[st->rows.order[st->rows.view.sel]].c->name, y,
				pane);
	y += pane;
	flat_titles(u, y, nw, &slab_table);
	map_rows(u, y + 1, rows, st->rows.view.top, st->rows.n);
	for (int r = 0; r < rows && st->rows.view.top + (size_t)r < st->rows.n; r++)
		flat_row(u, y + 1 + r, nw, &slab_table, st->rows.view.top + (size_t)r);
	if (!st->rows.n && rows > 0)
		put_text(&u->cv, y + 1, 0, u->cv.cols, ROLE_ROW_DIM,
			 empty_text(u, why, sizeof(why)), false);
	table_bottom(u, keys, (int)ARRAY_SIZE(keys), u->prefs->slab.filter);
}

/* ---- keys ---- */

struct reaction slab_act(struct ui *u, int a)
{
	if (a == SL_GRAPH) {
		st->graph = !st->graph;
		if (st->graph && !graph_rows(u))
			snprintf(u->message, sizeof(u->message), "no room for the graph");
		return reacts(REACT_NONE);
	}
	if (a == SL_SHORTER || a == SL_LONGER) {
		graph_zoom(u, a == SL_SHORTER ? -1 : 1);
		return reacts(REACT_NONE);
	}
	return a == SL_BACK ? flat_back(u) : table_act(&slab_table, u, a);
}
