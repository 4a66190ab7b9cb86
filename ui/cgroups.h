/* The cgroup screen (key C): the memory cgroup tree, one row per cgroup with the columns of
 * the cgroup column table, and its sort picker. */
#ifndef MEMTOP_CGROUPS_H
#define MEMTOP_CGROUPS_H

#include "screen.h"

/* The cgroup columns to read while the screen (or its picker, or the help from it) is
 * shown; 0 otherwise: the tree is not read */
unsigned cgroups_wanted(const struct ui *u);
/* After new rows (a refresh, a new order): the selection on the same cgroup */
void cgroups_reselect(struct ui *u);
/* The path of the selected cgroup (raw), or NULL where none is shown */
const char *cgroups_selected(const struct ui *u);
/* Frees the view's state */
void cgroups_free(struct ui *u);
/* The columns the cgroups can be sorted by, into out: the path and every column of the
 * view (the BPF ones while BPF is on); returns how many */
int cgroups_sortable(const struct ui *u, enum cgcol_id out[CGCOL_COUNT]);

#endif
