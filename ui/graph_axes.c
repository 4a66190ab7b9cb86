/* A graph's axes: the y axis scaled to a round top just above the data, with a dotted
 * reference line (RAM), and the time axis with round marks at their true places */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "graph_axes.h"
#include "util.h"

/* The least of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten at or above x (> 0) */
static double round_up(double x)
{
	static const double ladder[] = {1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10};
	double p = pow(10, floor(log10(x)));

	for (size_t i = 0; i < ARRAY_SIZE(ladder); i++)
		if (ladder[i] * p >= x * (1 - 1e-9))
			return ladder[i] * p;
	return 10 * p;
}

double graph_nice_top(double peak, enum graph_unit u)
{
	double x = peak * GRAPH_HEADROOM, unit = 1;

	if (!(peak > 0) || isinf(peak))
		return 0;
	if (u != GU_KB)
		return round_up(x);
	/* in the unit fmt_kb writes it in: the first of K, M, G, T, P it is under 1000 of */
	for (int i = 0; i < 4 && x / unit >= 1000; i++)
		unit *= 1024;
	double top = round_up(x / unit);
	if (top >= 1000) /* 1000M is written 1.0G: the next unit's 1 */
		return unit * 1024;
	return unit == 1 ? ceil(top) : top * unit; /* whole KiB: 2K, not 1.5K */
}

double graph_mark_step(double secs, int cols)
{
	static const double steps[] = {1,   2,	 5,   10,   15,	  30,	60,    120,
				       300, 600, 900, 1800, 3600, 7200, 21600, 43200};
	double apart = fmax(10, fmin(cols / 3.0, 20)); /* columns */

	for (size_t i = 0; i < ARRAY_SIZE(steps); i++)
		if (secs <= 0 || cols < 1 || steps[i] / secs * cols >= apart)
			return steps[i];
	return steps[ARRAY_SIZE(steps) - 1];
}

void graph_mark(double secs, double step, char *buf, size_t size)
{
	long s = lround(secs);

	if (step < 60)
		snprintf(buf, size, "-%lds", s);
	else if (s % 3600)
		snprintf(buf, size, "-%ldm", s / 60);
	else
		snprintf(buf, size, "-%ldh", s / 3600);
}

/* A label right-aligned against the axis line on plot row r */
static void y_label(struct graph_grid *grid, int top, int r, const char *label)
{
	int len = (int)strlen(label);

	graph_text(grid, top + r, GRAPH_YLABEL_W - 1 - len > 0 ? GRAPH_YLABEL_W - 1 - len : 0,
		   ROLE_GRAPH_AXIS, label);
}

/* The plot row (0 at the top) where v falls on a scale 0..max */
static int row_of(double v, double max, int rows, int dy)
{
	return rows - 1 - graph_dot_row(v, max, rows * dy) / dy;
}

/* The reference value as a dotted line across plot row r: every other dot of its dot row
 * (every other cell in ASCII) */
static void ref_line(struct graph_grid *grid, int y, int dot)
{
	for (int x = GRAPH_YLABEL_W; x < grid->w; x++) {
		struct graph_cell *c = graph_at(grid, y, x);
		if (grid->utf8) {
			graph_braille(graph_braille_bit(0, dot), c->ch);
		} else if ((x - GRAPH_YLABEL_W) % 2 == 0) {
			c->ch[0] = '-';
			c->ch[1] = '\0';
		} else {
			continue;
		}
		c->role = ROLE_GRAPH_AXIS;
	}
}

void graph_y_axis(struct graph_grid *grid, int top, int rows, double max,
		  const struct graph_scale *sc)
{
	int dy = graph_dots_y(grid->utf8), ref_row = -1;
	char label[16];

	for (int r = 0; r < rows; r++) {
		struct graph_cell *c = graph_at(grid, top + r, GRAPH_YLABEL_W - 1);
		snprintf(c->ch, sizeof(c->ch), "%s", grid->utf8 ? "│" : "|");
		c->role = ROLE_GRAPH_AXIS;
	}
	y_label(grid, top, rows - 1, "0");
	if (sc->own_scale) {
		if (rows > 1)
			y_label(grid, top, 0, "peak");
		return;
	}
	if (max <= 0 || rows < 2)
		return; /* nothing above 0 to scale */
	graph_value(max, sc->unit, label, sizeof(label));
	y_label(grid, top, 0, label);
	if (sc->ref > 0 && sc->ref <= max) {
		int d = graph_dot_row(sc->ref, max, rows * dy);
		ref_row = rows - 1 - d / dy;
		ref_line(grid, top + ref_row, dy - 1 - d % dy);
		graph_value(sc->ref, sc->unit, label, sizeof(label));
		if (ref_row > 0 && ref_row < rows - 1)
			y_label(grid, top, ref_row, label);
	}
	int mid = row_of(max / 2, max, rows, dy);
	if (rows >= 5 && mid > 0 && mid < rows - 1 && mid != ref_row) {
		graph_value(max / 2, sc->unit, label, sizeof(label));
		y_label(grid, top, mid, label);
	}
}

void graph_time_axis(struct graph_grid *grid, int y, double window, const char *end)
{
	end = end ? end : "now";
	int x0 = GRAPH_YLABEL_W, pw = grid->w - x0, ex = grid->w - (int)strlen(end);
	char mark[16];

	if (pw < 1 || ex < x0)
		return;
	graph_text(grid, y, ex, ROLE_GRAPH_AXIS, end);
	double step = graph_mark_step(window, pw);
	int right = ex; /* where the label to the right begins */
	for (int k = 1; k * step <= window * (1 + 1e-9); k++) {
		graph_mark(k * step, step, mark, sizeof(mark));
		int len = (int)strlen(mark);
		int x = x0 + (int)lround((1 - k * step / window) * (pw - 1)) - len / 2;
		if (x < x0)
			x = x0;
		if (x + len + 1 > right)
			continue; /* no room between its neighbours */
		graph_text(grid, y, x, ROLE_GRAPH_AXIS, mark);
		right = x;
	}
}
