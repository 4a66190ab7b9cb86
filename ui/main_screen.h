/* The main screen: header, process table and the bottom line with its prompts. */
#ifndef MEMTOP_MAIN_SCREEN_H
#define MEMTOP_MAIN_SCREEN_H

#include <stddef.h>
#include <stdint.h>

#include "screen.h"

/* The rows of the table the canvas has room for */
int main_table_rows(const struct ui *u);
/* The processes on screen (the rows from the table's top), at most max; returns how many */
size_t main_onscreen(const struct ui *u, int32_t *pids, size_t max);
/* After new rows (a refresh, a re-sort): the selection on the same process */
void main_reselect(struct ui *u);
/* The selected process, or 0 when the table is empty */
int32_t main_selected_pid(const struct ui *u);
/* A key while a prompt is open (u->prompt.kind != PROMPT_NONE); enum react bits */
unsigned main_prompt_key(struct ui *u, wint_t ch, bool is_key);

#endif
