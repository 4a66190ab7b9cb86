/* The cgroup screen's sort picker (F6 there): the columns it can sort by, one a line */
#include <stdio.h>

#include "cgroups.h"
#include "text.h"

enum { PICK_UP = 1, PICK_DOWN, PICK_SORT, PICK_BACK };

static const struct binding sort_keys[] = {
	{PICK_UP, {KEY_UP, 0}, "Up", "previous column"},
	{PICK_DOWN, {KEY_DOWN, 0}, "Down", "next column"},
	{PICK_SORT, {'\n', '\r', KEY_ENTER, 0}, "Enter", "sort the cgroups by it"},
	{PICK_BACK, {27, 'q', KEY_F(6), KEY_F(10)}, "Esc q F6", "back without a change"},
	{0, {0}, NULL, NULL},
};

static void draw_sort(struct ui *u)
{
	const struct canvas *cv = &u->cv;
	enum cgcol_id cols[CGCOL_COUNT];
	int n = cgroups_sortable(u, cols), first = 2, rows = cv->rows - first;
	int top = u->cg.sort_menu_sel >= rows ? u->cg.sort_menu_sel - rows + 1 : 0;

	put_text(cv, 0, 0, cv->cols, ROLE_HELP_TITLE, "Sort cgroups by (Enter picks, Esc returns)",
		 false);
	for (int i = top; i < n && i - top < rows; i++) {
		char line[300];
		snprintf(line, sizeof(line), "%-8s %s", cg_columns[cols[i]].title,
			 cg_columns[cols[i]].desc);
		put_text(cv, first + i - top, 0, cv->cols,
			 i == u->cg.sort_menu_sel ? ROLE_SELECTED : ROLE_ROW, line, true);
	}
}

static unsigned act_sort(struct ui *u, int a)
{
	enum cgcol_id cols[CGCOL_COUNT];
	int n = cgroups_sortable(u, cols);

	switch (a) {
	case PICK_UP:
		if (u->cg.sort_menu_sel > 0)
			u->cg.sort_menu_sel--;
		break;
	case PICK_DOWN:
		if (u->cg.sort_menu_sel + 1 < n)
			u->cg.sort_menu_sel++;
		break;
	case PICK_SORT:
		u->screen = SCREEN_CGROUPS;
		if (u->cg.sort_menu_sel >= n)
			break;
		u->prefs->cg.sort = cols[u->cg.sort_menu_sel];
		return REACT_RESORT;
	case PICK_BACK:
		u->screen = SCREEN_CGROUPS;
		break;
	}
	return REACT_NONE;
}

const struct screen screen_cgsort = {
	.title = "Cgroup sort column (F6 in the cgroups)",
	.keys = sort_keys,
	.draw = draw_sort,
	.act = act_sort,
};
