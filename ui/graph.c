#include "graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_axes.h"
#include "text.h"
#include "util.h"

static const char series_char[GRAPH_MAX_SERIES] = {'*', '+', 'o', 'x'};

static double newest(const double *v, size_t n)
{
	while (n-- > 0)
		if (!isnan(v[n]))
			return v[n];
	return NAN;
}

/* The legend's entry of series i at a level of detail: 0 its value now and, on its own
 * scale, its peak ("faults/s 12 peak 1.2K"); 1 its value now; 2 its name */
static void entry(const struct graph *g, int i, int level, char *buf, size_t size)
{
	char now[16], peak[16];

	graph_value(newest(g->s[i].v, g->n), g->unit[i], now, sizeof(now));
	graph_value(graph_peak(g->s[i].v, g->n), g->unit[i], peak, sizeof(peak));
	if (level == 0 && g->own_scale)
		snprintf(buf, size, "%s %s peak %s", g->s[i].name, now, peak);
	else if (level <= 1)
		snprintf(buf, size, "%s %s", g->s[i].name, now);
	else
		snprintf(buf, size, "%s", g->s[i].name);
}

/* The title, then each series's mark and entry, laid out on at most max lines of the
 * grid's width at a level of detail; an entry that does not fit is left out where drop
 * says so, else the layout fails (0). Returns the lines it takes; draws where draw. */
static int layout(const struct graph *g, struct graph_grid *grid, int max, int level, bool drop,
		  bool draw)
{
	int line = 0, x = (int)strlen(g->title) + 1;

	if (draw)
		graph_text(grid, 0, 0, ROLE_HEADER, g->title);
	for (int i = 0; i < g->ns; i++) {
		char item[96];
		entry(g, i, level, item, sizeof(item));
		int w = (int)strlen(item) + 2; /* the mark, a space, the entry */
		if (x + w > grid->w && x > 0 && line + 1 < max) {
			line++;
			x = 0;
		}
		if (x + w > grid->w) {
			if (!drop)
				return 0;
			continue;
		}
		if (draw && line < grid->h) {
			struct graph_cell *c = graph_at(grid, line, x);
			if (grid->utf8)
				graph_braille(0xff, c->ch);
			else
				c->ch[0] = series_char[i], c->ch[1] = '\0';
			c->role = (unsigned char)g->s[i].role;
			graph_text(grid, line, x + 2, ROLE_LABEL, item);
		}
		x += w + 1;
	}
	return line + 1;
}

/* The legend on its own first lines, at most max: in full where that fits, else the
 * peaks left out, else the values, else the entries that do not fit; returns the lines */
static int legend(const struct graph *g, struct graph_grid *grid, int max)
{
	for (int level = 0; level <= 2; level++)
		if (layout(g, grid, max, level, false, false))
			return layout(g, grid, max, level, false, true);
	return layout(g, grid, max, 2, true, true);
}

/* One series into the plot's dots: a line from each column's value to the next */
static void plot(const struct graph *g, int i, struct graph_grid *grid, int top, int rows,
		 double max, double *col, size_t m)
{
	int dx = graph_dots_x(grid->utf8), dy = graph_dots_y(grid->utf8), ndots = rows * dy;
	int prev = -1;

	graph_resample(g->s[i].v, g->n, col, m);
	for (size_t j = 0; j < m; j++) {
		int d = graph_dot_row(col[j], max, ndots);
		if (d < 0) {
			prev = -1;
			continue;
		}
		int lo = prev < 0 ? d : (prev < d ? prev + 1 : d);
		int hi = prev < 0 ? d : (prev > d ? prev - 1 : d);
		if (lo > hi)
			lo = hi = d;
		for (int k = lo; k <= hi; k++) {
			int row = top + rows - 1 - k / dy, x = GRAPH_YLABEL_W + (int)j / dx;
			struct graph_cell *c = graph_at(grid, row, x);
			if (grid->utf8) {
				unsigned bits = c->ch[0] ? ((unsigned char)c->ch[1] & 0x3) << 6 |
								   ((unsigned char)c->ch[2] & 0x3f)
							 : 0;
				graph_braille(
					bits | graph_braille_bit((int)j % dx, dy - 1 - k % dy),
					c->ch);
			} else {
				c->ch[0] = series_char[i];
				c->ch[1] = '\0';
			}
			c->role = (unsigned char)g->s[i].role;
		}
		prev = d;
	}
}

void graph_render(const struct graph *g, struct graph_grid *grid)
{
	memset(grid->cell, 0, (size_t)grid->w * (size_t)grid->h * sizeof(*grid->cell));
	if (grid->h < 1 || grid->w < 1)
		return;
	int most = g->legend_lines > 0 ? g->legend_lines : grid->h >= 8 ? 2 : 1;
	int lines = legend(g, grid, most);
	int top = g->legend_lines > 0 ? g->legend_lines : lines, rows = grid->h - top - 1;
	size_t m = graph_points(grid->w, grid->utf8);
	if (rows < 1 || !m)
		return;
	double max = 0, *col = xcalloc(m, sizeof(double));
	for (int i = 0; i < g->ns && !g->own_scale; i++)
		max = fmax(max, graph_peak(g->s[i].v, g->n));
	double peak = max;
	max = graph_nice_top(peak, g->unit[0]);
	if (g->ref >= peak && g->ref < max) /* RAM just above the data: the top */
		max = g->ref;
	const struct graph_scale sc = {g->own_scale, g->unit[0], g->ref};
	graph_y_axis(grid, top, rows, max, &sc);
	for (int i = 0; i < g->ns; i++)
		plot(g, i, grid, top, rows, g->own_scale ? graph_peak(g->s[i].v, g->n) : max, col,
		     m);
	graph_time_axis(grid, top + rows, g->window, g->end);
	free(col);
}

void graph_put(const struct canvas *cv, const struct graph_grid *grid, int y, int x)
{
	for (int r = 0; r < grid->h; r++)
		for (int c = 0; c < grid->w; c++) {
			const struct graph_cell *cell = graph_at(grid, r, c);
			if (cell->ch[0])
				put_text(cv, y + r, x + c, 1, (enum role)cell->role, cell->ch,
					 false);
		}
}

void graph_draw(const struct canvas *cv, const struct graph *g, int y, int x, int w, int h)
{
	struct graph_grid grid;

	if (w < 1 || h < 1)
		return;
	graph_grid_init(&grid, w, h, cv->utf8);
	graph_render(g, &grid);
	graph_put(cv, &grid, y, x);
	graph_grid_free(&grid);
}
