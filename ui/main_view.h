/* The process table's place on the main screen (struct table_view): the rows there is
 * room for, the processes on them and the selection, kept on its process. */
#ifndef MEMTOP_MAIN_VIEW_H
#define MEMTOP_MAIN_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "screen.h"

/* The rows of the table the canvas has room for */
int main_table_rows(const struct ui *u);
/* The processes on screen (the rows from the table's top), at most max; returns how many */
size_t main_onscreen(const struct ui *u, int32_t *pids, size_t max);
/* After new rows (a refresh, a re-sort): the selection on the same process */
void main_reselect(struct ui *u);
/* The selection moved by the user to row i (< the model's rows), followed from now on */
void main_select(struct ui *u, size_t i);
/* The selected process, or 0 when the table is empty */
int32_t main_selected_pid(const struct ui *u);

#endif
