/* A graph's axes (graph_axes.c): the y axis scaled to a round top just above the data,
 * with a dotted reference line (RAM), and the time axis with round marks at their true
 * places. They draw into a grid (graph_grid.h) and know nothing of the graph. */
#ifndef MEMTOP_GRAPH_AXES_H
#define MEMTOP_GRAPH_AXES_H

#include "graph_grid.h"

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

/* What the y axis labels: each series scaled to its own peak ("peak"), or one scale whose
 * labels are written in unit, with a value drawn as a dotted line where it is within the
 * scale, labelled on the axis (RAM; 0: none) */
struct graph_scale {
	bool own_scale;
	enum graph_unit unit;
	double ref;
};
/* The y axis of the plot's rows from top, scaled 0..max as sc says */
void graph_y_axis(struct graph_grid *grid, int top, int rows, double max,
		  const struct graph_scale *sc);
/* The time axis on row y: round marks over window seconds before end (NULL: "now") */
void graph_time_axis(struct graph_grid *grid, int y, double window, const char *end);

#endif
