/* The column picker ('f', as in top): every column of the process table with a mark for
 * those shown; Space or Enter shows or hides one. */
#include <stdio.h>

#include "screen.h"

enum { MENU_UP = 1, MENU_DOWN, MENU_HOME, MENU_END, MENU_PICK, MENU_BACK };

const struct binding column_keys[] = {
	{MENU_UP, {KEY_UP, 0}, "Up", "previous column"},
	{MENU_DOWN, {KEY_DOWN, 0}, "Down", "next column"},
	{MENU_HOME, {KEY_HOME, 0}, "Home", "first column"},
	{MENU_END, {KEY_END, 0}, "End", "last column"},
	{MENU_PICK, {' ', '\n', '\r', KEY_ENTER}, "Space Enter", "show or hide the column"},
	{MENU_BACK, {27, 'q', 'f', KEY_F(10)}, "Esc q f", "back to the table"},
	{0, {0}, NULL, NULL},
};

struct columns_state {
	int sel; /* the column selected */
};

struct columns_state columns_state;
static struct columns_state *const st = &columns_state;

static const char *why_hidden(const struct ui *u, enum col_id c)
{
	const struct snapshot *s = model_current(u->m);

	if ((columns[c].needs & NEED_BPF) && !(s && s->bpf.enabled))
		return "  (BPF off)";
	return "";
}

void columns_draw(struct ui *u)
{
	const struct canvas *cv = &u->cv;
	int first = 2, rows = cv->rows - first - 1;
	int top = st->sel >= rows ? st->sel - rows + 1 : 0;

	put_text(cv, 0, 0, cv->cols, ROLE_HELP_TITLE,
		 "Columns (Space or Enter shows or hides, Esc returns)", false);
	for (int i = top; i < COL_COUNT && i - top < rows; i++) {
		char line[200];
		bool on = u->prefs->cols & COL_BIT(i);

		snprintf(line, sizeof(line), "[%c] %-8s %s%s", on ? 'x' : ' ', columns[i].title,
			 columns[i].desc, why_hidden(u, (enum col_id)i));
		put_text(cv, first + i - top, 0, cv->cols, i == st->sel ? ROLE_SELECTED : ROLE_ROW,
			 line, true);
	}
	put_text(cv, cv->rows - 1, 0, cv->cols, ROLE_STATUS,
		 "Narrow screens hide the least needed columns first", true);
}

struct reaction columns_act(struct ui *u, int a)
{
	switch (a) {
	case MENU_UP:
	case MENU_DOWN:
		st->sel = list_step(st->sel, a == MENU_UP ? -1 : 1, COL_COUNT);
		break;
	case MENU_HOME:
	case MENU_END:
		st->sel = list_step(st->sel, a == MENU_HOME ? -COL_COUNT : COL_COUNT, COL_COUNT);
		break;
	case MENU_PICK: {
		unsigned cols = u->prefs->cols ^ COL_BIT(st->sel);

		if (!cols)
			break; /* the last one stays */
		/* the loop reads a new column for the rows on screen */
		return (struct reaction){REACT_NONE, {.op = PO_COLS, .cols = cols}};
	}
	case MENU_BACK:
		u->screen = SCREEN_MAIN;
		break;
	}
	return reacts(REACT_NONE);
}
