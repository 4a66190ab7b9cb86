/* The cgroup table's rows and cells: which cgroups are shown (the tree folded where
 * asked), the columns, and the drawing of titles and rows on the table screen. */
#ifndef MEMTOP_CGROUP_TABLE_H
#define MEMTOP_CGROUP_TABLE_H

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
	size_t acts_at; /* the action log's entries when the screen opened (u undoes after) */
};

extern struct cg_state cg_state;
extern struct cg_state cg_state;

/* The rows shown. The row shown i; the rows shown again from the model's
 * (those under a folded cgroup left out); a cgroup's subtree folded or unfolded */
const struct cg_row *cg_shown_row(const struct ui *u, size_t i);
void cg_update_visible(struct ui *u);
void cg_set_folded(uint64_t id, bool fold);

/* The numeric columns shown, in the table's order, and the path's width
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
