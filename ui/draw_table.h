/* The process table: which columns fit, and drawing the rows from the view's top. */
#ifndef MEMTOP_DRAW_TABLE_H
#define MEMTOP_DRAW_TABLE_H

#include "screen.h"

/* The columns of a line of the table, in order, and their widths (COMMAND's 0: the rest) */
struct table_fit {
	int n;
	enum col_id col[COL_COUNT];
	int w[COL_COUNT];
};

/* The columns shown on a line width columns wide (the terminal's), in order, into f;
 * returns how many. COMMAND keeps table_cmd_min columns: where the line is short, the
 * columns of the highest priority (.drop, or .idle_drop while a column reads zero on every
 * row) go first, while even their minimum widths (.min) do not fit, then those that can be
 * narrower are; BPF columns only while their counters are on; the sort column is never
 * hidden. The layout is kept from one call to the next while the width, the columns
 * chosen, their order, the sort column, the tree and BPF stay: values that change do not
 * change it. */
int table_layout(const struct ui *u, int width, struct table_fit *f);
/* The room COMMAND keeps on a line width wide: 35 columns from 80 on, 7/16 of a narrower
 * line (10 at least, 24 in the tree) */
int table_cmd_min(const struct ui *u, int width);

/* Column titles at y, then rows rows from the table's top, the commands' text scrolled
 * main_state.hscroll columns to the left (from there on each whole) */
void draw_table(struct ui *u, int y, int rows);

/* How far the commands' text scrolls: the longest's length past COMMAND's width */
int table_cmd_scroll(const struct ui *u);

#endif
