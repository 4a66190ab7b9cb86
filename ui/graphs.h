/* The graphs of the history: the system's memory and activity (a pane above the process
 * table, or a screen of their own where the terminal is small) and one process's. They
 * read the model's history (history.h) only. */
#ifndef MEMTOP_GRAPHS_H
#define MEMTOP_GRAPHS_H

#include <stdint.h>

#include "screen.h"

/* The pane above the table: on terminals of at least these sizes */
#define GRAPH_PANE_COLS 100
#define GRAPH_PANE_ROWS 36
#define GRAPH_PANE_H	12

/* Whether the terminal has room for the pane */
bool graph_pane_fits(const struct ui *u);
/* The rows the pane takes now: GRAPH_PANE_H when it is on and fits, else 0 */
int graph_pane_rows(const struct ui *u);
/* The two system graphs in the h rows from y: side by side or stacked */
void sys_graphs_draw(struct ui *u, int y, int h, bool side_by_side);
/* The two graphs of a process (RSS and swap; its fault rates) in the h rows from y */
void proc_graphs_draw(struct ui *u, int32_t pid, uint64_t start_ticks, int y, int h);

/* The size of the slab cache name over time (the history keeps the largest caches'), a
 * graph across the screen in the h rows from y */
void slab_graph_draw(struct ui *u, const char *name, int y, int h);

/* The window's zoom: '[' shorter, ']' longer, among the width's own and 1 min, 10 min, 1 h;
 * says which on the message line */
void graph_zoom(struct ui *u, int dir);

#endif
