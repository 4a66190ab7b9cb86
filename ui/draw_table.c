#include <limits.h>
#include <string.h>

#include "cells.h"
#include "draw_table.h"
#include "main_view.h"
#include "mouse.h"

/* Whether column c reads zero on every row: an idle column (its .idle_drop) */
static bool all_zero(const struct model *m, enum col_id c)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (row_number(m->rows[i], c) != 0)
			return false;
	return true;
}

/* Column i's priority now: the higher, the sooner it goes */
static int priority(const struct model *m, enum col_id c)
{
	const struct column *col = &columns[c];

	return col->idle_drop && all_zero(m, c) ? col->idle_drop : col->drop;
}

/* The one to give up first: the highest priority, of equals the rightmost; -1 if none */
static int worst(const int prio[], const struct table_fit *f, bool shrink)
{
	int w = -1;

	for (int i = 0; i < f->n; i++) {
		const struct column *col = &columns[f->col[i]];
		if (!prio[i] || (shrink && f->w[i] <= (col->min ? col->min : col->width)))
			continue;
		if (w < 0 || prio[i] >= prio[w])
			w = i;
	}
	return w;
}

int table_cmd_min(const struct ui *u, int width)
{
	int q = width < 80 ? width * 7 / 16 : 35;

	if (u->prefs->tree && q < 24)
		return 24; /* the tree's lines need room */
	return q < 10 ? 10 : q;
}

/* What a layout is made for: it is made again only when one of these changes */
struct fit_key {
	int width;
	unsigned cols;
	int8_t order[COL_COUNT];
	enum col_id sort;
	bool tree, bpf;
};

/* The columns that fit, for key: those of the highest priority go while even their
 * narrowest widths leave COMMAND less than its room, then those that can be narrower are */
static void fit(const struct ui *u, const struct fit_key *key, struct table_fit *f)
{
	int prio[COL_COUNT], full = 0, least = 0;
	enum col_id by[COL_COUNT];

	columns_ordered(key->order, by);
	f->n = 0;
	for (int k = 0; k < COL_COUNT; k++) {
		enum col_id c = by[k];
		if (c == COL_CMD || !(key->cols & COL_BIT(c)) ||
		    (!key->bpf && (columns[c].needs & NEED_BPF)))
			continue;
		f->col[f->n] = c;
		f->w[f->n] = columns[c].width;
		/* the sort column stays */
		prio[f->n++] = c == key->sort ? 0 : priority(u->m, c);
		full += columns[c].width + 1;
		least += (columns[c].min ? columns[c].min : columns[c].width) + 1;
	}
	int room = key->width - table_cmd_min(u, key->width);
	while (least > room) {
		int i = worst(prio, f, false);
		if (i < 0)
			break;
		const struct column *col = &columns[f->col[i]];
		full -= col->width + 1;
		least -= (col->min ? col->min : col->width) + 1;
		memmove(f->col + i, f->col + i + 1, (size_t)(f->n - i - 1) * sizeof(*f->col));
		memmove(f->w + i, f->w + i + 1, (size_t)(f->n - i - 1) * sizeof(*f->w));
		memmove(prio + i, prio + i + 1, (size_t)(f->n - i - 1) * sizeof(*prio));
		f->n--;
	}
	while (full > room) {
		int i = worst(prio, f, true);
		if (i < 0)
			break;
		int cut = f->w[i] - columns[f->col[i]].min;
		if (cut > full - room)
			cut = full - room;
		f->w[i] -= cut;
		full -= cut;
	}
	if (key->cols & COL_BIT(COL_CMD)) {
		f->col[f->n] = COL_CMD;
		f->w[f->n++] = 0;
	}
}

int table_layout(const struct ui *u, int width, struct table_fit *f)
{
	/* the layout last made, kept while what it was made for stays */
	static struct {
		bool made;
		struct fit_key key;
		struct table_fit fit;
	} kept;
	const struct snapshot *s = model_current(u->m);
	struct fit_key key;

	memset(&key, 0, sizeof(key)); /* compared whole */
	key.width = width;
	key.cols = u->prefs->cols;
	memcpy(key.order, u->prefs->order, sizeof(key.order));
	key.sort = u->prefs->sort;
	key.tree = u->prefs->tree;
	key.bpf = s && (s->bpf.enabled || s->bpf.loading);
	if (!kept.made || memcmp(&key, &kept.key, sizeof(key))) {
		fit(u, &key, &kept.fit);
		kept.key = key;
		kept.made = true;
	}
	*f = kept.fit;
	return f->n;
}

/* A cell of len bytes at the table's column *x: numbers to the right of their column,
 * their last digits where they are wider; text from its first column. w: its width, 0 the
 * rest of the line. */
static void cell(const struct canvas *cv, int y, int *x, const struct column *col, int w,
		 const char *text, size_t len, enum role r)
{
	bool rest = !w;
	int sx = *x;

	if (rest)
		w = cv->cols - sx;
	if (w <= 0)
		return;
	*x += w + !rest;
	if (col->unit != UNIT_TEXT && !rest) {
		put_number(cv, y, sx, w, r, text, len);
		return;
	}
	put_text(cv, y, sx, w, r, text, true);
	if (!rest && sx + w < cv->cols)
		put_text(cv, y, sx + w, 1, r, " ", false);
}

/* text past its first n characters (the command scrolled n columns) */
static const char *skip_chars(const char *text, int n, bool utf8)
{
	for (int k = 0; k < n && *text; k++)
		do
			text++;
		while (utf8 && (*text & 0xc0) == 0x80);
	return text;
}

/* The COMMAND cell of row, in width columns, scrolled hs columns: from there on the
 * whole command line, else its brief form where it does not fit */
static size_t command_cell(const struct row *row, char *text, size_t size, bool utf8, int width,
			   int hs)
{
	if (!hs)
		return cmd_cell(row, text, size, utf8, width);
	size_t len = cmd_cell(row, text, size, utf8, -1);
	const char *from = skip_chars(text, hs, utf8);
	len -= (size_t)(from - text);
	memmove(text, from, len + 1);
	return len;
}

void draw_table(struct ui *u, int y, int rows)
{
	const struct model *m = u->m;
	struct table_fit f;
	int hs = main_state.hscroll, n = table_layout(u, u->cv.cols, &f), x = 0;

	for (int i = 0; i < n; i++) {
		enum col_id c = f.col[i];
		int x0 = x;
		cell(&u->cv, y, &x, &columns[c], f.w[i], columns[c].title, strlen(columns[c].title),
		     c == m->prefs->sort ? ROLE_SORT_COLUMN : ROLE_TABLE_HEADER);
		map_title(u, y, x0, x - x0, c);
	}
	const struct table_view *v = &main_state.tab;
	const struct snapshot *s = model_current(m);
	bool loading = s && s->bpf.loading; /* its columns not yet known: "…" */

	map_rows(u, y + 1, rows, v->top, m->nrows);
	for (int r = 0; r < rows && v->top + (size_t)r < m->nrows; r++) {
		size_t i = v->top + (size_t)r;
		const struct row *row = m->rows[i];
		/* tagged rows as htop draws them, in the warning's colors */
		enum role role = i == v->sel			      ? ROLE_SELECTED
				 : tags_has(&main_state.tags, row->p) ? ROLE_WARNING
								      : ROLE_ROW;
		x = 0;
		for (int k = 0; k < n; k++) {
			enum col_id c = f.col[k];
			/* a leak suspect: its growth in the alert role */
			bool leak = row->leak && (c == COL_GROW || c == COL_GROW10);
			char text[1280];
			size_t len;
			if (loading && (columns[c].needs & NEED_BPF))
				len = unknown_cell(text, sizeof(text), u->cv.utf8);
			else if (columns[c].kind == KIND_RATE && !model_previous(m))
				len = (size_t)snprintf(text, sizeof(text), "-"); /* since boot */
			else if (c == COL_CMD)
				len = command_cell(row, text, sizeof(text), u->cv.utf8,
						   u->cv.cols - x, hs);
			else
				len = cell_text(row, c, text, sizeof(text), u->cv.utf8);
			cell(&u->cv, y + 1 + r, &x, &columns[c], f.w[k], text, len,
			     leak ? ROLE_ALERT : role);
		}
	}
}

int table_cmd_scroll(const struct ui *u)
{
	struct table_fit f;
	int n = table_layout(u, u->cv.cols, &f), x = 0, longest = 0;

	for (int i = 0; i < n && f.col[i] != COL_CMD; i++)
		x += f.w[i] + 1;
	for (size_t i = 0; i < u->m->nrows; i++) {
		char text[1280];
		int len = (int)cmd_cell(u->m->rows[i], text, sizeof(text), u->cv.utf8, -1);
		if (len > longest)
			longest = len;
	}
	return longest - (u->cv.cols - x);
}
