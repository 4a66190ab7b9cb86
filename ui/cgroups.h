/* The cgroup screen (key C): the memory cgroup tree, one row per cgroup with the columns of
 * the cgroup column table (cgroup_table.c draws them), on the table screen. */
#ifndef MEMTOP_CGROUPS_H
#define MEMTOP_CGROUPS_H

#include "table_screen.h"

/* The screen's state: its place, the subtrees folded in the tree (by id), the rows shown
 * (indices of the model's rows, those under a folded cgroup left out) and how many each
 * hides */
struct cg_state {
	struct table_view view;
	uint64_t *folded;
	size_t nfolded, folded_cap;
	size_t *vis, *hidden;
	size_t nvis, vis_cap;
};

extern struct cg_state cg_state;
extern const struct table_kind cg_table;

/* The cgroup columns to read while the screen (or its picker, or the help from it) is
 * shown; 0 otherwise: the tree is not read */
unsigned cgroups_wanted(const struct ui *u);
/* After new rows (a refresh, a new order): the selection on the same cgroup */
void cgroups_reselect(struct ui *u);
/* The path of the selected cgroup (raw), or NULL where none is shown */
const char *cgroups_selected(const struct ui *u);
/* The row shown i */
const struct cg_row *cg_shown_row(const struct ui *u, size_t i);

/* cgroup_table.c: the numeric columns shown, in the table's order, and the path's width
 * before them */
struct cg_layout {
	int n;
	enum cgcol_id col[CGCOL_COUNT];
	int path_w;
};

void cg_layout(const struct ui *u, struct cg_layout *l);
/* Column titles at y, then rows rows from the view's top */
void cg_table_draw(struct ui *u, int y, int rows);
/* The columns the cgroups can be sorted by (the picker's): the path and every column of
 * the view (the BPF ones while BPF is on); and those < and > step through: the path and
 * the columns shown. Return how many. */
int cgroups_sortable(const struct ui *u, int out[TABLE_COLS]);
int cgroups_steps(const struct ui *u, int out[TABLE_COLS]);

#endif
