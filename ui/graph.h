/* Line graphs of arrays of doubles (NAN: no value), rendered into a grid of cells that a
 * test can read, then put on the canvas. With UTF-8 each cell holds 2x4 Braille dots;
 * without, one character a cell, each series its own ('*', '+', 'o', 'x'). A graph: a
 * legend line or two of its own (entries shortened or dropped rather than wrapped onto the
 * plot), the plot with its y axis labels on the left (one axis: its top a round size just
 * above what the graph shows), the time axis below with round marks (graph_axes.h), drawn
 * with the primitives of graph_grid.h. */
#ifndef MEMTOP_GRAPH_H
#define MEMTOP_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "canvas.h"
#include "graph_grid.h"

#define GRAPH_MAX_SERIES 4

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

/* Renders g into the whole grid (cleared first) */
void graph_render(const struct graph *g, struct graph_grid *grid);
/* Puts the grid on the canvas with its top left at y, x */
void graph_put(const struct canvas *cv, const struct graph_grid *grid, int y, int x);
/* Both, into a w x h area */
void graph_draw(const struct canvas *cv, const struct graph *g, int y, int x, int w, int h);

#endif
