/* The table screen of the processes and the cgroups: what both do with their rows, and
 * the sort picker (F6) over either's columns. */
#include "table_screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "pref_req.h"
#include "prompt.h"
#include "text.h"
#include "util.h"

/* The rows shown */
static size_t rows_of(const struct table_kind *t, const struct ui *u)
{
	return t->flat ? t->flat->n : t->count(u);
}

size_t *flat_order_room(struct flat_order *o, size_t n)
{
	if (o->cap < n) {
		o->cap = n;
		o->order = xrealloc(o->order, o->cap * sizeof(*o->order));
	}
	return o->order;
}

void flat_order_free(struct flat_order *o)
{
	free(o->order);
	o->order = NULL;
	o->n = o->cap = 0;
}

struct reaction flat_back(struct ui *u)
{
	u->message[0] = '\0';
	u->screen = SCREEN_MAIN;
	return reacts(REACT_NONE);
}

static int sort_of(const struct table_kind *t, const struct ui *u)
{
	return *table_prefs(u->prefs, t->tab).sort;
}

void table_reselect(const struct table_kind *t, struct ui *u)
{
	struct table_view *v = t->view;
	size_t n = rows_of(t, u);

	if (!n) { /* the selection stays on its row for when it is back */
		v->sel = v->top = 0;
		return;
	}
	for (size_t i = 0; v->follow && i < n; i++) {
		if (t->id_of(u, i) == v->sel_id) {
			v->sel = i;
			break;
		}
	}
	if (v->sel >= n)
		v->sel = n - 1;
	size_t page = (size_t)t->page(u);
	if (v->sel < v->top)
		v->top = v->sel;
	else if (page && v->sel >= v->top + page)
		v->top = v->sel - page + 1;
	v->sel_id = t->id_of(u, v->sel);
}

void table_select(const struct table_kind *t, struct ui *u, size_t i)
{
	t->view->follow = true;
	t->view->sel = i;
	t->view->sel_id = t->id_of(u, i);
	table_reselect(t, u);
}

static void move_sel(const struct table_kind *t, struct ui *u, long delta)
{
	size_t n = rows_of(t, u);
	long s = (long)t->view->sel + delta;

	if (!n)
		return;
	if (s < 0)
		s = 0;
	if (s >= (long)n)
		s = (long)n - 1;
	table_select(t, u, (size_t)s);
}

/* The columns < and > step through (pick: those the picker lists), in order: a flat
 * table's are all its columns */
static int cols_of(const struct table_kind *t, const struct ui *u, bool pick, int out[TABLE_COLS])
{
	int (*f)(const struct ui *u, int out[TABLE_COLS]) = pick ? t->pickable : t->steps;

	if (f)
		return f(u, out);
	for (int c = 0; c < t->ncols; c++)
		out[c] = c;
	return t->ncols;
}

/* The column before or after the sort column among those < and > step through */
static struct reaction sort_step(const struct table_kind *t, struct ui *u, int dir)
{
	int order[TABLE_COLS], n = cols_of(t, u, false, order), i = 0, sort = sort_of(t, u);

	while (i < n && order[i] != sort)
		i++;
	i = i == n ? 0 : (i + dir + n) % n;
	return (struct reaction){REACT_RESORT, pref_sort(t->tab, n ? order[i] : sort)};
}

/* ---- the sort picker ---- */

struct sort_picker {
	const struct table_kind *t; /* the table it sorts */
	int sel;
};

struct sort_picker sort_picker;
static struct sort_picker *const picker = &sort_picker;

const struct table_kind *picker_table(void)
{
	return picker->t;
}

static void picker_open(const struct table_kind *t, struct ui *u)
{
	int cols[TABLE_COLS], n = cols_of(t, u, true, cols);

	picker->t = t;
	picker->sel = 0;
	for (int i = 0; i < n; i++)
		if (cols[i] == sort_of(t, u))
			picker->sel = i;
	u->screen = SCREEN_SORT;
}

struct reaction table_act(const struct table_kind *t, struct ui *u, int a)
{
	long page = t->page(u);

	switch ((enum table_act)a) {
	case TA_UP:
	case TA_DOWN:
		move_sel(t, u, a == TA_UP ? -1 : 1);
		break;
	case TA_PGUP:
	case TA_PGDN:
		move_sel(t, u, a == TA_PGUP ? -page : page);
		break;
	case TA_HOME: /* back to the top of the list, which the view keeps from now on */
		move_sel(t, u, -(long)rows_of(t, u));
		t->view->follow = false;
		break;
	case TA_END:
		move_sel(t, u, (long)rows_of(t, u));
		break;
	case TA_SORT_PREV:
	case TA_SORT_NEXT:
		return sort_step(t, u, a == TA_SORT_PREV ? -1 : 1);
	case TA_SORT_MENU:
		picker_open(t, u);
		break;
	case TA_SORT_DEFAULT:
		return (struct reaction){REACT_RESORT, pref_sort(t->tab, t->default_sort)};
	case TA_INVERT:
		return (struct reaction){REACT_RESORT, pref_op(t->tab, PO_INVERT)};
	case TA_TREE:
		return (struct reaction){REACT_RESORT, pref_op(t->tab, PO_TREE)};
	case TA_FILTER:
		prompt_open(&u->prompt, PROMPT_FILTER, table_prefs(u->prefs, t->tab).filter);
		break;
	case TA_COLUMNS:
		columns_open(u, t->tab);
		break;
	case TA_COUNT:
		break;
	}
	return reacts(REACT_NONE);
}

/* A column title sorts by it (again: inverts), a row is selected, the wheel scrolls */
struct reaction table_mouse(const struct table_kind *t, struct ui *u, const struct mouse_hit *h)
{
	struct table_view *v = t->view;
	size_t i;

	if (h->kind == MOUSE_TITLE) {
		u->message[0] = '\0';
		return (struct reaction){REACT_RESORT,
					 {.op = PO_SORT_BY, .tab = t->tab, .col = h->col}};
	}
	if (!mouse_row(h, &u->map, &v->top, &v->sel, rows_of(t, u), &i))
		return reacts(REACT_NONE);
	u->message[0] = '\0';
	table_select(t, u, i);
	return reacts(REACT_NONE);
}

struct reaction table_filter_key(const struct table_kind *t, struct ui *u, wint_t ch, bool is_key)
{
	char text[128];
	enum prompt_result r = prompt_edit(&u->prompt, ch, is_key);

	prompt_text(&u->prompt, text, sizeof(text));
	switch (r) {
	case PROMPT_CANCEL:
		return (struct reaction){REACT_RESORT, pref_text(t->tab, "")};
	case PROMPT_EDITED:
		u->message[0] = '\0';
		return (struct reaction){REACT_RESORT, pref_text(t->tab, text)};
	default:
		return reacts(REACT_NONE);
	}
}

void put_number(const struct canvas *cv, int y, int x, int w, enum role r, const char *t,
		size_t len)
{
	char buf[1024];
	size_t cols = len; /* on screen: a UTF-8 character (as "…") takes one */

	for (size_t i = 0; i < len; i++)
		cols -= ((unsigned char)t[i] & 0xc0) == 0x80;
	if (w <= 0 || (size_t)w + len >= sizeof(buf))
		return;
	if (cols <= (size_t)w) {
		memset(buf, ' ', (size_t)w - cols);
		memcpy(buf + (size_t)w - cols, t, len);
		buf[(size_t)w - cols + len] = '\0';
	} else { /* wider: its last digits */
		memcpy(buf, t + len - (size_t)w, (size_t)w);
		buf[w] = '\0';
	}
	put_text(cv, y, x, w + 1 <= cv->cols - x ? w + 1 : cv->cols - x, r, buf, true);
}

void table_bottom(struct ui *u, const struct keybar_item *keys, int n, const char *filter)
{
	const struct canvas *cv = &u->cv;
	int y = cv->rows - 1, x;

	if (u->prompt.kind != PROMPT_NONE) {
		prompt_draw(cv, &u->prompt, y);
		return;
	}
	curs_set(0);
	if (u->message[0]) {
		put_text(cv, y, 0, cv->cols, ROLE_WARNING, u->message, true);
		return;
	}
	/* a replay: its keys, on the screens they move */
	static const struct keybar_item replay_bar[] = {
		{"{", "Back", '{'},	    {"}", "Fwd", '}'},	{"^", "First", '^'},
		{"$", "Last", '$'},	    {"J", "Jump", 'J'}, {"N", "NextOOM", 'N'},
		{"P", "PrevOOM", 'P'},	    {"Z", "Play", 'Z'}, {"F1", "Help", KEY_F(1)},
		{"F10", "Quit", KEY_F(10)},
	};
	if (u->rv.on && u->screens[u->screen].replay)
		x = draw_keybar(u, y, replay_bar, (int)(sizeof(replay_bar) / sizeof(*replay_bar)));
	else
		x = draw_keybar(u, y, keys, n);
	if (filter[0] && x < cv->cols) {
		char f[160], esc[140];
		escape_display(filter, esc, sizeof(esc), cv->utf8);
		snprintf(f, sizeof(f), " filter: %s", esc);
		put_text(cv, y, x, cv->cols - x, ROLE_WARNING, f, false);
	}
}

/* The picker: the columns, one a line, the sort column selected */

enum { PICK_UP = 1, PICK_DOWN, PICK_SORT, PICK_BACK };

const struct binding sort_keys[] = {
	{PICK_UP, {KEY_UP, 0}, "Up", "previous column"},
	{PICK_DOWN, {KEY_DOWN, 0}, "Down", "next column"},
	{PICK_SORT, {'\n', '\r', KEY_ENTER, 0}, "Enter", "sort by it"},
	{PICK_BACK, {27, 'q', KEY_F(6), KEY_F(10)}, "Esc q F6", "back unchanged"},
	{0, {0}, NULL, NULL},
};

void sort_draw(struct ui *u)
{
	const struct canvas *cv = &u->cv;
	const struct table_kind *t = picker->t;
	int cols[TABLE_COLS], n = cols_of(t, u, true, cols), first = 2, rows = cv->rows - first;
	int top = picker->sel >= rows ? picker->sel - rows + 1 : 0;

	put_text(cv, 0, 0, cv->cols, ROLE_HELP_TITLE, t->picker_title, false);
	for (int i = top; i < n && i - top < rows; i++) {
		char line[300];
		snprintf(line, sizeof(line), "%-8s %s", t->columns[cols[i]].title,
			 t->columns[cols[i]].desc);
		put_text(cv, first + i - top, 0, cv->cols,
			 i == picker->sel ? ROLE_SELECTED : ROLE_ROW, line, true);
	}
}

struct reaction sort_act(struct ui *u, int a)
{
	const struct table_kind *t = picker->t;
	int cols[TABLE_COLS], n = cols_of(t, u, true, cols);

	switch (a) {
	case PICK_UP:
	case PICK_DOWN:
		picker->sel = list_step(picker->sel, a == PICK_UP ? -1 : 1, n);
		break;
	case PICK_SORT: {
		u->screen = t->screen;
		if (picker->sel >= n)
			break;
		/* a column not shown is, and read now */
		int on[TABLE_COLS], non = cols_of(t, u, false, on), c = cols[picker->sel];
		bool shown = false;
		for (int i = 0; i < non; i++)
			shown |= on[i] == c;
		return (struct reaction){REACT_RESORT | (shown ? 0 : REACT_COLLECT),
					 pref_sort(t->tab, c)};
	}
	case PICK_BACK:
		u->screen = t->screen;
		break;
	}
	return reacts(REACT_NONE);
}

/* ---- flat tables ---- */

int flat_first_width(const struct ui *u, const struct column *cols, int n)
{
	int w = u->cv.cols;

	for (int c = 1; c < n; c++)
		w -= cols[c].width + 1;
	if (w > cols[0].width + 8)
		w = cols[0].width + 8;
	return w > 8 ? w : 8;
}

void flat_titles(struct ui *u, int y, int first_w, const struct table_kind *t)
{
	const struct canvas *cv = &u->cv;
	int x = first_w, sort = sort_of(t, u);

	put_text(cv, y, 0, cv->cols, ROLE_TABLE_HEADER, "", true);
	put_text(cv, y, 0, first_w, sort == 0 ? ROLE_SORT_COLUMN : ROLE_TABLE_HEADER,
		 t->columns[0].title, true);
	map_title(u, y, 0, first_w, 0);
	for (int c = 1; c < t->ncols && x < cv->cols; c++) {
		const struct column *col = &t->columns[c];
		enum role r = c == sort ? ROLE_SORT_COLUMN : ROLE_TABLE_HEADER;
		x++;
		put_number(cv, y, x, col->width, r, col->title, strlen(col->title));
		map_title(u, y, x, col->width, c);
		x += col->width;
	}
}

void flat_row(struct ui *u, int y, int first_w, const struct table_kind *t, size_t i)
{
	const struct canvas *cv = &u->cv;
	struct table_row v = t->row(u, i);
	enum role role = i == t->view->sel ? ROLE_SELECTED : ROLE_ROW;
	char text[300];
	int x = first_w;

	table_cell(t->columns, 0, &v, text, sizeof(text), cv->utf8);
	put_text(cv, y, 0, first_w, role, text, true);
	for (int c = 1; c < t->ncols && x < cv->cols; c++) {
		size_t len = table_cell(t->columns, c, &v, text, sizeof(text), cv->utf8);
		put_text(cv, y, x++, 1, role, " ", false);
		put_number(cv, y, x, t->columns[c].width, role, text, len);
		x += t->columns[c].width;
	}
	if (x < cv->cols)
		put_text(cv, y, x, cv->cols - x, role, "", true);
}
