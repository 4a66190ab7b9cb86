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
	int q = width / 4;

	if (u->prefs->tree)
		return 24; /* the tree's lines need room */
	return q < 10 ? 10 : q > 20 ? 20 : q;
}

int table_layout(const struct ui *u, int width, struct table_fit *f)
{
	const struct snapshot *s = model_current(u->m);
	bool bpf = s && (s->bpf.enabled || s->bpf.loading);
	int prio[COL_COUNT], full = 0, least = 0;

	enum col_id by[COL_COUNT];
	columns_ordered(u->prefs->order, by);
	f->n = 0;
	for (int k = 0; k < COL_COUNT; k++) {
		enum col_id c = by[k];
		if (c == COL_CMD || !(u->prefs->cols & COL_BIT(c)) ||
		    (!bpf && (columns[c].needs & NEED_BPF)))
			continue;
		f->col[f->n] = c;
		f->w[f->n] = columns[c].width;
		/* the sort column stays */
		prio[f->n++] = c == u->prefs->sort ? 0 : priority(u->m, c);
		full += columns[c].width + 1;
		least += (columns[c].min ? columns[c].min : columns[c].width) + 1;
	}
	int room = width - table_cmd_min(u, width);
	/* the least needed go while even their narrowest widths leave no room */
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
	/* then those that can be narrower are, the least needed first */
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
	if (u->prefs->cols & COL_BIT(COL_CMD)) {
		f->col[f->n] = COL_CMD;
		f->w[f->n++] = 0;
	}
	return f->n;
}

/* A cell of len bytes at the table's column *x, shown hs columns to the left (the table
 * scrolled): numbers to the right of their column, their last digits where they are wider;
 * text from its first column on screen. w: its width, 0 the rest of the line. */
static void cell(const struct canvas *cv, int y, int *x, int hs, const struct column *col, int w,
		 const char *text, size_t len, enum role r)
{
	bool rest = !w;
	int x0 = *x, sx = x0 - hs;

	if (rest)
		w = cv->cols - sx;
	if (w <= 0)
		return;
	*x += w + !rest;
	if (sx + w <= 0)
		return;
	if (col->unit != UNIT_TEXT && !rest) {
		if (sx >= 0)
			put_number(cv, y, sx, w, r, text, len);
		return;
	}
	int skip = sx < 0 ? -sx : 0;
	for (int k = 0; k < skip && *text; k++) /* the characters left of the screen */
		do
			text++;
		while (cv->utf8 && (*text & 0xc0) == 0x80);
	put_text(cv, y, sx + skip, w - skip, r, text, true);
	if (!rest && sx + w < cv->cols)
		put_text(cv, y, sx + w, 1, r, " ", false);
}

void draw_table(struct ui *u, int y, int rows)
{
	const struct model *m = u->m;
	struct table_fit f;
	int hs = main_state.hscroll, n = table_layout(u, u->cv.cols + hs, &f), x = 0;

	for (int i = 0; i < n; i++) {
		enum col_id c = f.col[i];
		int x0 = x;
		cell(&u->cv, y, &x, hs, &columns[c], f.w[i], columns[c].title,
		     strlen(columns[c].title),
		     c == m->prefs->sort ? ROLE_SORT_COLUMN : ROLE_TABLE_HEADER);
		if (x0 >= hs)
			map_title(u, y, x0 - hs, x - x0, c);
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
				len = cmd_cell(row, text, sizeof(text), u->cv.utf8,
					       u->cv.cols + hs - x);
			else
				len = cell_text(row, c, text, sizeof(text), u->cv.utf8);
			cell(&u->cv, y + 1 + r, &x, hs, &columns[c], f.w[k], text, len,
			     leak ? ROLE_ALERT : role);
		}
	}
}

int table_line_width(const struct ui *u)
{
	struct table_fit f;
	int n = table_layout(u, INT_MAX / 2, &f), w = 0, longest = 0;

	for (int i = 0; i < n; i++)
		w += f.w[i] + 1;
	for (size_t i = 0; i < u->m->nrows; i++) {
		char text[1280];
		int len = (int)cmd_cell(u->m->rows[i], text, sizeof(text), u->cv.utf8, -1);
		if (len > longest)
			longest = len;
	}
	return w + longest;
}
