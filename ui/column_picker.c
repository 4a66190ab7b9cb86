/* The column menu ('f' as in top, F2 as htop's setup) of the process table or the cgroup
 * table: every column in the order the screen shows them, with a mark for those shown;
 * Space or Enter shows or hides one; on the process table F7 and F8 move it up and down the
 * order (COMMAND stays last). The cgroup table's path is always shown, first. */
#include <stdio.h>

#include "cgcolumns.h"
#include "screen.h"
#include "table_screen.h"

enum {
	MENU_UP = 1,
	MENU_DOWN,
	MENU_HOME,
	MENU_END,
	MENU_PICK,
	MENU_BACK,
	MENU_EARLIER,
	MENU_LATER
};

const struct binding column_keys[] = {
	{MENU_UP, {KEY_UP, 0}, "Up", "previous column"},
	{MENU_DOWN, {KEY_DOWN, 0}, "Down", "next column"},
	{MENU_HOME, {KEY_HOME, 0}, "Home", "first column"},
	{MENU_END, {KEY_END, 0}, "End", "last column"},
	{MENU_PICK, {' ', '\n', '\r', KEY_ENTER}, "Space Enter", "show or hide the column"},
	{MENU_EARLIER, {KEY_F(7), '[', 0}, "F7 [", "move it up (earlier)"},
	{MENU_LATER, {KEY_F(8), ']', 0}, "F8 ]", "move it down (later)"},
	{MENU_BACK, {27, 'q', 'f', KEY_F(10)}, "Esc q f", "back to the table"},
	{0, {0}, NULL, NULL},
};

struct columns_state {
	int sel;	     /* the column selected */
	enum table_id tab;   /* the table whose columns it lists */
	enum screen_id back; /* the screen it was opened from */
};

struct columns_state columns_state;
static struct columns_state *const st = &columns_state;

void columns_open(struct ui *u, enum table_id tab)
{
	if (tab != TAB_PROCS && tab != TAB_CGROUPS) {
		snprintf(u->message, sizeof(u->message), "this table's columns are fixed");
		return;
	}
	if (st->tab != tab)
		st->sel = 0;
	st->tab = tab;
	st->back = u->screen;
	u->screen = SCREEN_COLUMNS;
}

enum table_id columns_table(void)
{
	return st->tab;
}

/* The columns listed, in order (the cgroup table's path, always shown, is not); returns
 * how many */
static int listed(const struct ui *u, int out[TABLE_COLS])
{
	if (st->tab == TAB_CGROUPS) {
		for (int c = CGCOL_PATH + 1; c < CGCOL_COUNT; c++)
			out[c - CGCOL_PATH - 1] = c;
		return CGCOL_COUNT - CGCOL_PATH - 1;
	}
	enum col_id by[COL_COUNT];
	columns_ordered(u->prefs->order, by);
	for (int i = 0; i < COL_COUNT; i++)
		out[i] = (int)by[i];
	return COL_COUNT;
}

static const struct column *table_of(void)
{
	return st->tab == TAB_CGROUPS ? cg_columns : columns;
}

static unsigned shown(const struct ui *u)
{
	return st->tab == TAB_CGROUPS ? u->prefs->cg.cols : u->prefs->cols;
}

static const char *why_hidden(const struct ui *u, int c)
{
	const struct snapshot *s = model_current(u->m);
	unsigned bpf = st->tab == TAB_CGROUPS ? CGNEED_BPF_OOM | CGNEED_BPF_RECLAIM : NEED_BPF;

	if ((table_of()[c].needs & bpf) && !(s && s->bpf.enabled))
		return "  (BPF off)";
	return "";
}

void columns_draw(struct ui *u)
{
	const struct canvas *cv = &u->cv;
	int first = 2, rows = cv->rows - first - 1, by[TABLE_COLS], n = listed(u, by);
	int top = st->sel >= rows ? st->sel - rows + 1 : 0;
	const struct column *t = table_of();

	put_words(cv, 0, 0, cv->cols, ROLE_HELP_TITLE,
		  st->tab == TAB_CGROUPS
			  ? "Cgroup columns (Space or Enter shows or hides, Esc returns)"
			  : "Columns (Space or Enter shows or hides, F7 F8 move, Esc returns)",
		  false);
	for (int i = top; i < n && i - top < rows; i++) {
		char line[200];
		int c = by[i];
		bool on = shown(u) & TABLE_BIT(c);

		snprintf(line, sizeof(line), "[%c] %-8s %s%s", on ? 'x' : ' ', t[c].title,
			 t[c].desc, why_hidden(u, c));
		put_text(cv, first + i - top, 0, cv->cols, i == st->sel ? ROLE_SELECTED : ROLE_ROW,
			 line, true);
	}
	put_text(cv, cv->rows - 1, 0, cv->cols, ROLE_STATUS,
		 "Narrow screens hide the least needed columns first", true);
}

/* The selected column moved by delta places in the order, the selection with it; COMMAND
 * stays last */
static struct reaction move_column(struct ui *u, int delta)
{
	struct reaction r = {REACT_NONE, {.op = PO_ORDER}};
	enum col_id by[COL_COUNT];
	int to = st->sel + delta;

	if (st->tab == TAB_CGROUPS) {
		snprintf(u->message, sizeof(u->message), "the cgroup columns keep their order");
		return reacts(REACT_NONE);
	}
	columns_ordered(u->prefs->order, by);
	if (to < 0 || to >= COL_COUNT - 1 || by[st->sel] == COL_CMD)
		return reacts(REACT_NONE);
	for (int i = 0; i < COL_COUNT; i++)
		r.pref.order[by[i]] = (int8_t)i;
	r.pref.order[by[st->sel]] = (int8_t)to;
	r.pref.order[by[to]] = (int8_t)st->sel;
	st->sel = to;
	return r;
}

struct reaction columns_act(struct ui *u, int a)
{
	int by[TABLE_COLS], n = listed(u, by);

	switch (a) {
	case MENU_UP:
	case MENU_DOWN:
		st->sel = list_step(st->sel, a == MENU_UP ? -1 : 1, n);
		break;
	case MENU_HOME:
	case MENU_END:
		st->sel = list_step(st->sel, a == MENU_HOME ? -n : n, n);
		break;
	case MENU_EARLIER:
	case MENU_LATER:
		return move_column(u, a == MENU_EARLIER ? -1 : 1);
	case MENU_PICK: {
		unsigned cols = shown(u) ^ TABLE_BIT(by[st->sel]);

		if (!cols)
			break; /* the last one stays (the cgroups' path is not listed) */
		/* the loop reads a new column for the rows on screen */
		return (struct reaction){REACT_NONE, {.op = PO_COLS, .tab = st->tab, .cols = cols}};
	}
	case MENU_BACK:
		u->screen = st->back;
		break;
	}
	return reacts(REACT_NONE);
}
