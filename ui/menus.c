/* Two pickers over the column table: the sort column (F6) and the columns shown ('f', as
 * in top: every column with a mark for those shown; Space or Enter shows or hides one). */
#include <stdio.h>

#include "draw_table.h"
#include "screen.h"

enum { MENU_UP = 1, MENU_DOWN, MENU_HOME, MENU_END, MENU_PICK, MENU_BACK };

static const struct binding sort_keys[] = {
	{MENU_UP, {KEY_UP, 0}, "Up", "previous column"},
	{MENU_DOWN, {KEY_DOWN, 0}, "Down", "next column"},
	{MENU_PICK, {'\n', '\r', KEY_ENTER, 0}, "Enter", "sort by it"},
	{MENU_BACK, {27, 'q', KEY_F(6), KEY_F(10)}, "Esc q F6", "back without a change"},
	{0, {0}, NULL, NULL},
};

static const struct binding column_keys[] = {
	{MENU_UP, {KEY_UP, 0}, "Up", "previous column"},
	{MENU_DOWN, {KEY_DOWN, 0}, "Down", "next column"},
	{MENU_HOME, {KEY_HOME, 0}, "Home", "first column"},
	{MENU_END, {KEY_END, 0}, "End", "last column"},
	{MENU_PICK, {' ', '\n', '\r', KEY_ENTER}, "Space Enter", "show or hide the column"},
	{MENU_BACK, {27, 'q', 'f', KEY_F(10)}, "Esc q f", "back to the table"},
	{0, {0}, NULL, NULL},
};

static void draw_sort(struct ui *u)
{
	const struct canvas *cv = &u->cv;
	enum col_id shown[COL_COUNT];
	int n = table_layout(u, shown);

	put_text(cv, 0, 0, cv->cols, ROLE_HELP_TITLE, "Sort by (Enter picks, Esc returns)", false);
	for (int i = 0; i < n && i + 2 < cv->rows; i++) {
		char line[160];
		snprintf(line, sizeof(line), "%-8s %s", columns[shown[i]].title,
			 columns[shown[i]].desc);
		put_text(cv, i + 2, 0, cv->cols, i == u->sort_menu_sel ? ROLE_SELECTED : ROLE_ROW,
			 line, true);
	}
}

static unsigned act_sort(struct ui *u, int a)
{
	enum col_id shown[COL_COUNT];
	int n = table_layout(u, shown);

	switch (a) {
	case MENU_UP:
		if (u->sort_menu_sel > 0)
			u->sort_menu_sel--;
		break;
	case MENU_DOWN:
		if (u->sort_menu_sel + 1 < n)
			u->sort_menu_sel++;
		break;
	case MENU_PICK:
		u->screen = SCREEN_MAIN;
		if (u->sort_menu_sel >= n)
			break;
		u->prefs->sort = shown[u->sort_menu_sel];
		return REACT_RESORT;
	case MENU_BACK:
		u->screen = SCREEN_MAIN;
		break;
	}
	return REACT_NONE;
}

const struct screen screen_sort = {
	.title = "Sort column (F6)",
	.keys = sort_keys,
	.draw = draw_sort,
	.act = act_sort,
};

static const char *why_hidden(const struct ui *u, enum col_id c)
{
	const struct snapshot *s = model_current(u->m);

	if ((columns[c].needs & NEED_BPF) && !(s && s->bpf.enabled))
		return "  (BPF off)";
	return "";
}

static void draw_columns(struct ui *u)
{
	const struct canvas *cv = &u->cv;
	int first = 2, rows = cv->rows - first - 1;
	int top = u->col_menu_sel >= rows ? u->col_menu_sel - rows + 1 : 0;

	put_text(cv, 0, 0, cv->cols, ROLE_HELP_TITLE,
		 "Columns (Space or Enter shows or hides, Esc returns)", false);
	for (int i = top; i < COL_COUNT && i - top < rows; i++) {
		char line[200];
		bool on = u->prefs->cols & COL_BIT(i);

		snprintf(line, sizeof(line), "[%c] %-8s %s%s", on ? 'x' : ' ', columns[i].title,
			 columns[i].desc, why_hidden(u, (enum col_id)i));
		put_text(cv, first + i - top, 0, cv->cols,
			 i == u->col_menu_sel ? ROLE_SELECTED : ROLE_ROW, line, true);
	}
	put_text(cv, cv->rows - 1, 0, cv->cols, ROLE_STATUS,
		 "Narrow screens hide the least needed columns first", true);
}

static unsigned act_columns(struct ui *u, int a)
{
	switch (a) {
	case MENU_UP:
		if (u->col_menu_sel > 0)
			u->col_menu_sel--;
		break;
	case MENU_DOWN:
		if (u->col_menu_sel + 1 < COL_COUNT)
			u->col_menu_sel++;
		break;
	case MENU_HOME:
		u->col_menu_sel = 0;
		break;
	case MENU_END:
		u->col_menu_sel = COL_COUNT - 1;
		break;
	case MENU_PICK: {
		unsigned cols = u->prefs->cols ^ COL_BIT(u->col_menu_sel);

		if (!cols)
			break;	       /* the last one stays */
		u->prefs->cols = cols; /* the loop reads a new column for the rows on screen */
		break;
	}
	case MENU_BACK:
		u->screen = SCREEN_MAIN;
		break;
	}
	return REACT_NONE;
}

const struct screen screen_columns = {
	.title = "Column picker (f, F2)",
	.keys = column_keys,
	.draw = draw_columns,
	.act = act_columns,
};
