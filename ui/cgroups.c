/* The cgroup screen: the header, then the memory cgroups as a tree (folded where asked) or
 * a flat list, one row per cgroup with the columns of the cgroup column table, the path
 * first (cgroup_table.c draws them), on the table screen (table_screen.c). */
#include "cgroups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "act_keys.h"
#include "draw_header.h"
#include "help.h"
#include "main_view.h"
#include "prompt.h"
#include "util.h"

enum action {
	CG_FOLD = TA_COUNT,
	CG_UNFOLD,
	CG_PROCS,
	CG_BACK,
	CG_HIGH,
	CG_MAX,
	CG_RECLAIM,
	CG_KILL,
	CG_UNDO,
};

const struct binding cg_keys[] = {
	TABLE_MOVE_KEYS("cgroup"),
	{TA_SORT_DEFAULT, {'M', 0}, "M", "sort by usage"},
	{TA_INVERT, {'I', 0}, "I", "invert the sort order"},
	{TA_TREE, {'t', KEY_F(5), 0}, "t F5", "tree or flat list"},
	{CG_FOLD, {'-', KEY_LEFT, 0}, "- Left", "fold the subtree"},
	{CG_UNFOLD, {'+', KEY_RIGHT, 0}, "+ Right", "unfold it"},
	{TA_FILTER, {'\\', KEY_F(4), 0}, "\\ F4", "filter by path or name"},
	TABLE_COLUMNS_KEY,
	{CG_PROCS, {'\n', '\r', KEY_ENTER, 0}, "Enter", "its processes"},
	{CG_HIGH, {'H', 0}, "H", "throttle it: set memory.high (v2), confirmed"},
	{CG_MAX, {'L', 0}, "L", "set its limit (memory.max, v1 limit_in_bytes), confirmed"},
	{CG_RECLAIM, {'R', 0}, "R", "reclaim an amount from it (memory.reclaim), confirmed"},
	{CG_KILL, {'k', KEY_F(9), 0}, "k F9", "kill its processes (cgroup.kill), confirmed"},
	{CG_UNDO, {'u', 0}, "u", "undo the last limit set since the screen opened"},
	{CG_BACK, {27, 'q', 'C', KEY_F(10)}, "Esc q C", "back to the table"},
	{0, {0}, NULL, NULL},
};

static struct cg_state *const v = &cg_state;

static int table_rows(const struct ui *u)
{
	int n = u->cv.rows - header_rows(u) - 2; /* column titles, bottom line */
	return n > 0 ? n : 0;
}

void cgroups_reselect(struct ui *u)
{
	cg_update_visible(u);
	table_reselect(&cg_table, u);
}

const char *cgroups_selected(const struct ui *u)
{
	if (!u->cgm || v->view.sel >= v->nvis || v->vis[v->view.sel] >= u->cgm->nrows)
		return NULL;
	return cg_shown_row(u, v->view.sel)->c->path;
}

unsigned cgroups_wanted(const struct ui *u)
{
	bool open = u->screen == SCREEN_CGROUPS ||
		    (u->screen == SCREEN_SORT && picker_table() == &cg_table) ||
		    (u->screen == SCREEN_COLUMNS && columns_table() == TAB_CGROUPS) ||
		    (u->screen == SCREEN_HELP && help_back(u) == SCREEN_CGROUPS);

	return open ? u->prefs->cg.cols | CGCOL_BIT(u->prefs->cg.sort) : 0;
}

void cgroups_open(struct ui *u)
{
	u->screen = SCREEN_CGROUPS;
	v->acts_at = u->acts ? u->acts->n : 0;
}

void cg_done(struct ui *u)
{
	(void)u;
	free(v->folded);
	free(v->vis);
	free(v->hidden);
	memset(v, 0, sizeof(*v));
}

/* ---- keys ---- */

static void fold(struct ui *u, bool on)
{
	size_t sel = v->view.sel;

	if (!u->prefs->cg.tree) {
		snprintf(u->message, sizeof(u->message), "folding needs the tree (t)");
		return;
	}
	if (sel >= v->nvis)
		return;
	const struct cg_row *r = cg_shown_row(u, sel);
	size_t next = v->vis[sel] + 1;
	bool children = next < u->cgm->nrows && u->cgm->rows[next].depth > r->depth;
	if (on && !children)
		return;
	cg_set_folded(r->c->id, on);
	v->view.follow = true;
	v->view.sel_id = r->c->id;
	cgroups_reselect(u);
}

struct reaction cg_act(struct ui *u, int a)
{
	u->message[0] = '\0';
	cg_update_visible(u);
	if (a < TA_COUNT)
		return table_act(&cg_table, u, a);
	switch ((enum action)a) {
	case CG_FOLD:
	case CG_UNFOLD:
		fold(u, a == CG_FOLD);
		break;
	case CG_PROCS:
		if (!cgroups_selected(u)) {
			snprintf(u->message, sizeof(u->message), "no cgroup selected");
			break;
		}
		main_show_cgroup(u);
		return reacts(REACT_CGROUP_PROCS);
	case CG_BACK:
		u->screen = SCREEN_MAIN;
		break;
	case CG_HIGH:
	case CG_MAX:
	case CG_RECLAIM:
	case CG_KILL: {
		static const enum act_op ops[] = {[CG_HIGH - CG_HIGH] = AO_CG_HIGH,
						  [CG_MAX - CG_HIGH] = AO_CG_MAX,
						  [CG_RECLAIM - CG_HIGH] = AO_CG_RECLAIM,
						  [CG_KILL - CG_HIGH] = AO_CG_KILL};
		return act_ask_cgroup(u, ops[a - CG_HIGH],
				      cgroups_selected(u) ? cg_shown_row(u, v->view.sel) : NULL);
	}
	case CG_UNDO:
		return act_ask_undo(u, v->acts_at);
	}
	return reacts(REACT_NONE);
}

void cg_draw(struct ui *u)
{
	static const struct keybar_item keys[] = {
		{"Enter", "Procs", '\n'}, {"F4", "Filter", KEY_F(4)}, {"F5", "Tree", KEY_F(5)},
		{"-", "Fold", '-'},	  {"+", "Unfold", '+'},	      {"F6", "SortBy", KEY_F(6)},
		{"Esc", "Back", 27},
	};
	int y = header_rows(u);

	cgroups_reselect(u);
	draw_header(u);
	cg_table_draw(u, y, table_rows(u));
	table_bottom(u, keys, (int)ARRAY_SIZE(keys), u->prefs->cg.filter);
}

static size_t count(const struct ui *u)
{
	(void)u;
	return v->nvis;
}

static uint64_t id_of(const struct ui *u, size_t i)
{
	return cg_shown_row(u, i)->c->id;
}

const struct table_kind cg_table = {
	.tab = TAB_CGROUPS,
	.screen = SCREEN_CGROUPS,
	.view = &cg_state.view,
	.count = count,
	.id_of = id_of,
	.page = table_rows,
	.steps = cgroups_steps,
	.pickable = cgroups_sortable,
	.columns = cg_columns,
	.default_sort = CGCOL_USAGE,
	.picker_title = "Sort cgroups by (Enter picks, Esc returns)",
};
