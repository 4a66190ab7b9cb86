/* The grid of cells a graph renders into, which a test can read, and the primitives its
 * plot (graph.c) and its axes (graph_axes.c) draw with: dots, Braille, values, text. */
#ifndef MEMTOP_GRAPH_GRID_H
#define MEMTOP_GRAPH_GRID_H

#include <stdbool.h>
#include <stddef.h>

#include "theme.h"

#define GRAPH_YLABEL_W 6 /* "24.5G" and the axis line */

enum graph_unit { GU_KB, GU_RATE, GU_AVG };

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

/* ASCII text at y, x in role r, cut at the grid's edge; returns the column after it */
int graph_text(struct graph_grid *g, int y, int x, enum role r, const char *s);

#endif
