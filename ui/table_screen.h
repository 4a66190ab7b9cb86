/* The table screen both tables are made of (the processes, the cgroups): each supplies its
 * rows and columns (struct table_kind); the selection kept on its row, the keys that move
 * it, sort or filter, the mouse, the bottom line and the sort picker are here. */
#ifndef MEMTOP_TABLE_SCREEN_H
#define MEMTOP_TABLE_SCREEN_H

#include "mouse.h"
#include "screen.h"

#define TABLE_COLS ((int)COL_COUNT > (int)CGCOL_COUNT ? (int)COL_COUNT : (int)CGCOL_COUNT)

/* A table's place, as in top and htop: until the user moves the selection (or after Home)
 * it stays on the first row of the sorted list; once moved, it follows the row selected
 * (by its id: a pid, a cgroup's), and when that one goes away, stays at the same place */
struct table_view {
	size_t sel;
	size_t top;
	uint64_t sel_id;
	bool follow; /* the user moved the selection: it follows sel_id */
};

/* A flat table's rows (the slab caches, the users): the indexes of the rows shown, in
 * order, and its place */
struct flat_order {
	struct table_view view;
	size_t *order;
	size_t n, cap;
};

/* What a table supplies */
struct table_kind {
	enum table_id tab; /* whose preferences order and filter it */
	enum screen_id screen;
	struct table_view *view;
	size_t (*count)(const struct ui *u); /* the rows shown; NULL: flat's */
	const struct flat_order *flat;
	uint64_t (*id_of)(const struct ui *u, size_t i);
	int (*page)(const struct ui *u); /* the rows there is room for */
	/* the columns < and > step through, and those the picker lists, in order; return
	 * how many (NULL: all of a flat table's ncols) */
	int (*steps)(const struct ui *u, int out[TABLE_COLS]);
	int (*pickable)(const struct ui *u, int out[TABLE_COLS]);
	const struct column *columns; /* its column table: a column's title, what it is */
	int default_sort;	      /* M */
	const char *picker_title;     /* the picker's first line */
	/* a flat table (flat_titles, flat_row): its columns, the text one first, then
	 * numbers; and row i as the table layer reads it */
	int ncols;
	struct table_row (*row)(const struct ui *u, size_t i);
};

/* A flat table's kind: its rows in a struct flat_order, the first column text, then
 * numbers */
#define FLAT_TABLE(tab_, screen_, rows_, id_of_, page_, row_, columns_, ncols_, sort_, title_)     \
	{                                                                                          \
		.tab = (tab_), .screen = (screen_), .view = &(rows_)->view, .flat = (rows_),       \
		.id_of = (id_of_), .page = (page_), .columns = (columns_),                         \
		.default_sort = (sort_), .picker_title = (title_), .ncols = (ncols_),              \
		.row = (row_),                                                                     \
	}

/* Room in o->order for n rows: o->order */
size_t *flat_order_room(struct flat_order *o, size_t n);
void flat_order_free(struct flat_order *o);
/* A flat table's back key: its message dropped, the process table shown */
struct reaction flat_back(struct ui *u);

/* The actions both tables bind (their binding tables' act); a table's own come after */
enum table_act {
	TA_UP = 1,
	TA_DOWN,
	TA_PGUP,
	TA_PGDN,
	TA_HOME,
	TA_END,
	TA_SORT_PREV,
	TA_SORT_NEXT,
	TA_SORT_MENU,
	TA_SORT_DEFAULT,
	TA_INVERT,
	TA_TREE,
	TA_FILTER,
	TA_COLUMNS, /* the column menu (column_picker.c) */
	TA_COUNT
};

/* The rows both tables' key tables begin with: moving the selection over their rows (row
 * names one: "process", "cgroup") and the sort column */
/* clang-format off */
#define TABLE_MOVE_KEYS(row)                                                                       \
	{TA_UP, {KEY_UP, 0}, "Up", "select the " row " above"},                                    \
	{TA_DOWN, {KEY_DOWN, 0}, "Down", "select the " row " below"},                              \
	{TA_PGUP, {KEY_PPAGE, 0}, "PgUp", "one page up"},                                          \
	{TA_PGDN, {KEY_NPAGE, 0}, "PgDn", "one page down"},                                        \
	{TA_HOME, {KEY_HOME, 0}, "Home", "first " row},                                            \
	{TA_END, {KEY_END, 0}, "End", "last " row},                                                \
	{TA_SORT_PREV, {'<', ',', 0}, "<", "sort by the left column"},                            \
	{TA_SORT_NEXT, {'>', '.', 0}, ">", "sort by the right column"},                            \
	{TA_SORT_MENU, {KEY_F(6), 0}, "F6", "choose the sort column"}
/* The column menu's key, of the tables whose columns can be chosen (processes, cgroups) */
#define TABLE_COLUMNS_KEY {TA_COLUMNS, {'f', KEY_F(2), 0}, "f F2", "choose the columns"}
/* clang-format on */

struct reaction table_act(const struct table_kind *t, struct ui *u, int a);
/* After new rows (a refresh, a new order): the selection on the same row */
void table_reselect(const struct table_kind *t, struct ui *u);
/* The selection moved by the user to row i (< count), followed from now on */
void table_select(const struct table_kind *t, struct ui *u, size_t i);
struct reaction table_mouse(const struct table_kind *t, struct ui *u, const struct mouse_hit *h);
/* The filter prompt (PROMPT_FILTER): it narrows the rows as it is typed, Esc clears it */
struct reaction table_filter_key(const struct table_kind *t, struct ui *u, wint_t ch, bool is_key);
/* The bottom line: the prompt open, else the message, else the key bar and the filter */
void table_bottom(struct ui *u, const struct keybar_item *keys, int n, const char *filter);
/* A number of len bytes to the right of its w columns at y, x, its last digits where
 * wider, and a space after it where the line has room */
void put_number(const struct canvas *cv, int y, int x, int w, enum role r, const char *t,
		size_t len);
/* A flat table's lines (the slab caches, the users): the first column's width, the rest
 * of the line after the numbers (at most 8 more than its own); the column titles at y,
 * the sort column's marked and each mapped for a click; row i at y, selected or not */
int flat_first_width(const struct ui *u, const struct column *cols, int n);
void flat_titles(struct ui *u, int y, int first_w, const struct table_kind *t);
void flat_row(struct ui *u, int y, int first_w, const struct table_kind *t, size_t i);
/* The table whose sort picker is open (or was last) */
const struct table_kind *picker_table(void);

#endif
