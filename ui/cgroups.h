/* The cgroup screen (key C): the memory cgroup tree, one row per cgroup with the columns of
 * the cgroup column table (cgroup_table.c draws them), on the table screen. */
#ifndef MEMTOP_CGROUPS_H
#define MEMTOP_CGROUPS_H

#include "cgroup_table.h"

extern const struct table_kind cg_table;

/* The cgroup columns to read while the screen (or its picker, or the help from it) is
 * shown; 0 otherwise: the tree is not read */
unsigned cgroups_wanted(const struct ui *u);
/* After new rows (a refresh, a new order): the selection on the same cgroup */
void cgroups_reselect(struct ui *u);
/* Shows the screen (C, --cgroups): a limit changed from now on can be undone (u) */
void cgroups_open(struct ui *u);
/* The path of the selected cgroup (raw), or NULL where none is shown */
const char *cgroups_selected(const struct ui *u);

#endif
