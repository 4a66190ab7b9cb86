/* The users screen: the header, a line that says how many processes' PSS and USS could
 * not be read, then a row per user (the totals of the newest snapshot, users.h, in the
 * order user_totals_order gives for the screen's sort column and filter), the columns of
 * user_columns. Its sort and filter are prefs->users (not saved): PSS first. */
#include "users_screen.h"

#include <stdio.h>
#include <stdlib.h>

#include "draw_header.h"
#include "help.h"
#include "pref_req.h"
#include "users.h"
#include "util.h"

enum action {
	US_PROCS = TA_COUNT,
	US_BACK,
};

const struct binding users_keys[] = {
	TABLE_MOVE_KEYS("user"),
	{TA_SORT_DEFAULT, {'M', 0}, "M", "sort by PSS"},
	{TA_INVERT, {'I', 0}, "I", "invert the sort order"},
	{TA_FILTER, {'\\', KEY_F(4), 0}, "\\ F4", "filter by name"},
	{US_PROCS, {'\n', '\r', KEY_ENTER, 0}, "Enter", "their processes"},
	{US_BACK, {27, 'q', 'L', KEY_F(10)}, "Esc q L", "back to the table"},
	{0, {0}, NULL, NULL},
};

struct users_state {
	struct user_totals totals; /* of the newest snapshot */
	struct flat_order rows;	   /* the totals shown, in order */
} users_state;
static struct users_state *const st = &users_state;

static int table_rows(const struct ui *u)
{
	int n = u->cv.rows - header_rows(u) - 3; /* the unread line, titles, bottom line */
	return n > 0 ? n : 0;
}

static const struct user_total *user_at(size_t i)
{
	return &st->totals.u[st->rows.order[i]];
}

static uint64_t id_of(const struct ui *u, size_t i)
{
	(void)u;
	return user_at(i)->uid;
}

static struct table_row row_view(const struct ui *u, size_t i)
{
	(void)u;
	return user_row_view(user_at(i));
}

/* The table layer moves the selection, sorts and filters by prefs->users */
const struct table_kind users_table =
	FLAT_TABLE(TAB_USERS, SCREEN_USERS, &st->rows, id_of, table_rows, row_view, user_columns,
		   USERCOL_COUNT, USERCOL_PSS, "Sort users by");

/* The totals of the newest snapshot, in the screen's order, the selection on the same
 * user */
static void reorder(struct ui *u)
{
	const struct snapshot *s = model_current(u->m);
	const struct user_prefs *p = &u->prefs->users;

	st->totals.n = 0;
	if (s)
		user_totals_make(&st->totals, s);
	st->rows.n =
		user_totals_order(&st->totals, &(struct user_order){p->sort, p->invert, p->filter},
				  flat_order_room(&st->rows, st->totals.n));
	table_reselect(&users_table, u);
}

void users_done(struct ui *u)
{
	(void)u;
	user_totals_free(&st->totals);
	flat_order_free(&st->rows);
}

/* How many users and processes, and of those how many could not be read */
static void draw_summary(struct ui *u, int y)
{
	size_t procs = 0, unread = user_totals_unread(&st->totals);
	char line[200];

	for (size_t i = 0; i < st->totals.n; i++)
		procs += (size_t)st->totals.u[i].v[USERCOL_NPROCS];
	snprintf(line, sizeof(line),
		 "%zu users, %zu processes; PSS and USS (smaps_rollup) unread for %zu",
		 st->totals.n, procs, unread);
	put_text(&u->cv, y, 0, u->cv.cols, unread ? ROLE_WARNING : ROLE_LABEL, line, true);
}

void users_draw(struct ui *u)
{
	static const struct keybar_item keys[] = {
		{"Enter", "Procs", '\n'}, {"F4", "Filter", KEY_F(4)}, {"M", "PSS", 'M'},
		{"I", "Invert", 'I'},	  {"Esc", "Back", 27},
	};
	int y = header_rows(u), rows = table_rows(u);
	int nw = flat_first_width(u, user_columns, USERCOL_COUNT);

	reorder(u);
	draw_header(u);
	draw_summary(u, y++);
	flat_titles(u, y, nw, &users_table);
	map_rows(u, y + 1, rows, st->rows.view.top, st->rows.n);
	for (int r = 0; r < rows && st->rows.view.top + (size_t)r < st->rows.n; r++)
		flat_row(u, y + 1 + r, nw, &users_table, st->rows.view.top + (size_t)r);
	if (!st->rows.n && rows > 0)
		put_text(&u->cv, y + 1, 0, u->cv.cols, ROLE_ROW_DIM,
			 st->totals.n ? "No user's name holds the filter's text (\\ changes it, "
					"Esc in it clears it)"
				      : "No processes read yet",
			 false);
	table_bottom(u, keys, (int)ARRAY_SIZE(keys), u->prefs->users.filter);
}

/* Enter: the process table, showing the selected user's processes */
static struct reaction show_procs(struct ui *u)
{
	if (!st->rows.n) {
		snprintf(u->message, sizeof(u->message), "no user selected");
		return reacts(REACT_NONE);
	}
	u->screen = SCREEN_MAIN;
	return (struct reaction){
		REACT_RESORT, {.op = PO_USER, .on = true, .uid = user_at(st->rows.view.sel)->uid}};
}

struct reaction users_act(struct ui *u, int a)
{
	if (a == US_PROCS)
		return show_procs(u);
	return a == US_BACK ? flat_back(u) : table_act(&users_table, u, a);
}
