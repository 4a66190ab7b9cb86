/* The process table: which columns fit, and drawing the rows from the view's top. */
#ifndef MEMTOP_DRAW_TABLE_H
#define MEMTOP_DRAW_TABLE_H

#include "screen.h"

/* The columns shown on this canvas, in order, into shown; returns how many. The least
 * needed go first where the line is short; BPF columns only while their counters are on. */
int table_layout(const struct ui *u, enum col_id shown[COL_COUNT]);

/* Column titles at y, then rows rows from the table's top */
void draw_table(struct ui *u, int y, int rows);

#endif
