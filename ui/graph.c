#include "graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util.h"

static const char series_char[GRAPH_MAX_SERIES] = {'*', '+', 'o', 'x'};

void graph_grid_init(struct graph_grid *g, int w, int h, bool utf8)
{
	g->w = w > 0 ? w : 0;
	g->h = h > 0 ? h : 0;
	g->utf8 = utf8;
	g->cell = xcalloc((size_t)g->w * (size_t)g->h + 1, sizeof(*g->cell));
}

void graph_grid_free(struct graph_grid *g)
{
	free(g->cell);
	g->cell = NULL;
}

void graph_row_text(const struct graph_grid *g, int y, char *buf, size_t size)
{
	size_t off = 0;

	for (int x = 0; x < g->w; x++) {
		const char *c = graph_at(g, y, x)->ch[0] ? graph_at(g, y, x)->ch : " ";
		size_t n = strlen(c);
		if (off + n + 1 > size)
			break;
		memcpy(buf + off, c, n);
		off += n;
	}
	if (size)
		buf[off] = '\0';
}

int graph_dots_x(bool utf8)
{
	return utf8 ? 2 : 1;
}

int graph_dots_y(bool utf8)
{
	return utf8 ? 4 : 1;
}

size_t graph_points(int w, bool utf8)
{
	return w > GRAPH_YLABEL_W ? (size_t)(w - GRAPH_YLABEL_W) * (size_t)graph_dots_x(utf8) : 0;
}

int graph_dot_row(double v, double max, int ndots)
{
	if (isnan(v) || ndots < 1)
		return -1;
	if (max <= 0 || v <= 0)
		return 0;
	long r = lround(v / max * (ndots - 1));
	return r > ndots - 1 ? ndots - 1 : (int)r;
}

void graph_resample(const double *v, size_t n, double *out, size_t m)
{
	for (size_t j = 0; j < m; j++) {
		size_t a = j * n / m, b = (j + 1) * n / m;
		double best = NAN;

		if (n <= m) { /* no more values than columns: the nearest */
			size_t i = m > 1 ? (size_t)lround((double)j * (double)(n - 1) /
							  (double)(m - 1))
					 : n - 1;
			out[j] = n ? v[i < n ? i : n - 1] : NAN;
			continue;
		}
		for (size_t i = a; i < b && i < n; i++)
			if (!isnan(v[i]) && (isnan(best) || v[i] > best))
				best = v[i];
		out[j] = best;
	}
}

double graph_peak(const double *v, size_t n)
{
	double p = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > p)
			p = v[i];
	return p;
}

unsigned graph_braille_bit(int dx, int dy)
{
	static const unsigned bit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
	return bit[dx & 1][dy & 3];
}

void graph_braille(unsigned bits, char out[4])
{
	unsigned cp = 0x2800 + (bits & 0xff);

	out[0] = (char)(0xe0 | (cp >> 12));
	out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[2] = (char)(0x80 | (cp & 0x3f));
	out[3] = '\0';
}

void graph_ago(double secs, char *buf, size_t size)
{
	long s = lround(secs);

	if (s < 60)
		snprintf(buf, size, "-%lds", s);
	else if (s < 3600 && s % 60)
		snprintf(buf, size, "-%ldm%02lds", s / 60, s % 60);
	else if (s < 3600 || s % 3600)
		snprintf(buf, size, "-%ldm", s / 60);
	else
		snprintf(buf, size, "-%ldh", s / 3600);
}

void graph_value(double v, enum graph_unit u, char *buf, size_t size)
{
	if (isnan(v)) {
		snprintf(buf, size, "-");
		return;
	}
	switch (u) {
	case GU_KB:
		fmt_kb(v > 0 ? (uint64_t)v : 0, buf, size);
		break;
	case GU_RATE:
		fmt_rate(v, buf, size);
		break;
	case GU_AVG:
		snprintf(buf, size, "%.2f", v);
		break;
	}
}

int graph_text(struct graph_grid *g, int y, int x, enum role r, const char *s)
{
	for (; *s && x < g->w && y >= 0 && y < g->h; s++, x++) {
		struct graph_cell *c = graph_at(g, y, x);
		c->ch[0] = *s;
		c->ch[1] = '\0';
		c->role = (unsigned char)r;
	}
	return x;
}

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
	graph_y_axis(g, grid, top, rows, max);
	for (int i = 0; i < g->ns; i++)
		plot(g, i, grid, top, rows, g->own_scale ? graph_peak(g->s[i].v, g->n) : max, col,
		     m);
	graph_time_axis(g, grid, top + rows);
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
