/* Line graphs of arrays of doubles (NAN: no value), rendered into a grid of cells that a
 * test can read, then put on the canvas. With UTF-8 each cell holds 2x4 Braille dots;
 * without, one character a cell, each series its own ('*', '+', 'o', 'x'). A graph: a
 * legend line or two of its own (entries shortened or dropped rather than wrapped onto the
 * plot), the plot with its y axis labels on the left (one axis: its top a round size just
 * above what the graph shows), the time axis below with round marks (graph_axes.c). */
#ifndef MEMTOP_GRAPH_H
#define MEMTOP_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "canvas.h"

#define GRAPH_MAX_SERIES 4
#define GRAPH_YLABEL_W	 6 /* "24.5G" and the axis line */

enum graph_unit { GU_KB, GU_RATE, GU_AVG };

struct graph_series {
	const char *name; /* in the legend; ASCII */
	const double *v;  /* n values, oldest first, evenly spaced, the last at the window's end */
	enum role role;
};

struct graph {
	const char *title;
	struct graph_series s[GRAPH_MAX_SERIES];
	int ns;
	size_t n; /* values of each series */
	enum graph_unit unit[GRAPH_MAX_SERIES];
	bool own_scale;	  /* each series scaled to its own peak (in the legend); else one axis */
	double ref;	  /* one axis: a value drawn as a dotted line where it is within the
			     scale, labelled on the axis (RAM; 0: none); the top where it lies
			     between the data's peak and the round top above it */
	double window;	  /* seconds the values span, for the time axis */
	const char *end;  /* the time axis's right end; NULL: "now" */
	int legend_lines; /* lines kept for the legend (graphs side by side keep the same);
			     0: what it takes, 2 at most where the graph has 8 rows or more */
};

struct graph_cell {
	char ch[4]; /* one character, UTF-8; "" blank */
	unsigned char role;
};

/* What a graph renders into: w x h cells, rows top to bottom */
struct graph_grid {
	int w, h;
	bool utf8;
	struct graph_cell *cell;
};

void graph_grid_init(struct graph_grid *g, int w, int h, bool utf8);
void graph_grid_free(struct graph_grid *g);
static inline struct graph_cell *graph_at(const struct graph_grid *g, int y, int x)
{
	return &g->cell[y * g->w + x];
}
/* The cells' characters of row y as one string (blank cells as spaces) */
void graph_row_text(const struct graph_grid *g, int y, char *buf, size_t size);

/* Dots a cell holds across and down */
int graph_dots_x(bool utf8);
int graph_dots_y(bool utf8);
/* The points a graph of w cells across plots: one a dot column */
size_t graph_points(int w, bool utf8);

/* The dot row (0 at the bottom) of v on a scale of 0..max over ndots rows; -1 for NAN */
int graph_dot_row(double v, double max, int ndots);
/* n values onto m (one a dot column): a column spanning several values takes their peak,
 * one between values the nearest */
void graph_resample(const double *v, size_t n, double *out, size_t m);
/* The largest value of v, 0 when none */
double graph_peak(const double *v, size_t n);
/* The Braille character of dot bits (bit 0 top left ... as Unicode numbers them) */
void graph_braille(unsigned bits, char out[4]);
/* The bit of the dot at column dx (0, 1), row dy (0 top .. 3) of a Braille cell */
unsigned graph_braille_bit(int dx, int dy);
/* A time before the end: "-45s", "-1m40s", "-10m", "-1h" */
void graph_ago(double secs, char *buf, size_t size);
/* A value in a unit: "24G", "12K", "0.25" */
void graph_value(double v, enum graph_unit u, char *buf, size_t size);

/* ---- the axes (graph_axes.c) ---- */

/* The top of one axis for values up to peak: a little above it (GRAPH_HEADROOM), rounded
 * up to 1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten in the unit as the graph
 * writes it (KiB, MiB, GiB ... for GU_KB: 800M, 1.0G, 1.5G, 25G); 0 when peak is not above 0 */
#define GRAPH_HEADROOM 1.05
double graph_nice_top(double peak, enum graph_unit u);
/* The seconds between the time axis's marks over a window of secs on cols columns: the
 * shortest round step (1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 6, 12 h) whose
 * marks are 20 columns apart, or a third of the columns on a narrower plot (10 at least) */
double graph_mark_step(double secs, int cols);
/* A mark secs before the end, step apart: "-60s" while the step is under a minute, else
 * "-5m", "-1h", "-90m" */
void graph_mark(double secs, double step, char *buf, size_t size);

/* ASCII text at y, x in role r, cut at the grid's edge; returns the column after it */
int graph_text(struct graph_grid *g, int y, int x, enum role r, const char *s);
/* The y axis of the plot's rows from top, scaled 0..max (own_scale: "peak"), with the
 * dotted reference line of g->ref; the time axis on row y */
void graph_y_axis(const struct graph *g, struct graph_grid *grid, int top, int rows, double max);
void graph_time_axis(const struct graph *g, struct graph_grid *grid, int y);

/* Renders g into the whole grid (cleared first) */
void graph_render(const struct graph *g, struct graph_grid *grid);
/* Puts the grid on the canvas with its top left at y, x */
void graph_put(const struct canvas *cv, const struct graph_grid *grid, int y, int x);
/* Both, into a w x h area */
void graph_draw(const struct canvas *cv, const struct graph *g, int y, int x, int w, int h);

#endif
