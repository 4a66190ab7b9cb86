#include <string.h>

#include "cells.h"
#include "draw_table.h"
#include "main_view.h"
#include "mouse.h"

/* Leaves the command 10 columns (24 in the tree view): drops the highest `drop` first */
int table_layout(const struct ui *u, enum col_id shown[COL_COUNT])
{
	const struct snapshot *s = model_current(u->m);
	bool bpf = s && (s->bpf.enabled || s->bpf.loading);
	int n = 0, width = 0;
	for (int c = 0; c < COL_COUNT; c++) {
		if (!(u->prefs->cols & COL_BIT(c)) || (!bpf && (columns[c].needs & NEED_BPF)))
			continue;
		shown[n++] = (enum col_id)c;
		width += columns[c].width + 1;
	}
	const int min_cmd = u->prefs->tree ? 24 : 10; /* the tree's lines need room */
	while (width + min_cmd > u->cv.cols) {
		int worst = -1;
		for (int i = 0; i < n; i++)
			if (columns[shown[i]].drop &&
			    (worst < 0 || columns[shown[i]].drop > columns[shown[worst]].drop))
				worst = i;
		if (worst < 0)
			break;
		width -= columns[shown[worst]].width + 1;
		memmove(shown + worst, shown + worst + 1, (size_t)(n - worst - 1) * sizeof(*shown));
		n--;
	}
	return n;
}

/* A cell of len bytes: numbers to the right of their column, their last digits where they
 * are wider */
static void cell(const struct canvas *cv, int y, int *x, enum col_id c, const char *text,
		 size_t len, enum role r)
{
	const struct column *col = &columns[c];
	int w = col->width ? col->width : cv->cols - *x;
	if (w <= 0)
		return;
	if (col->unit != UNIT_TEXT && col->width) {
		put_number(cv, y, *x, w, r, text, len);
		*x += w;
		if (*x < cv->cols)
			(*x)++;
		return;
	}
	put_text(cv, y, *x, w, r, text, true);
	*x += w;
	if (col->width && *x < cv->cols)
		put_text(cv, y, (*x)++, 1, r, " ", false);
}

/* A cell not yet known (its BPF programs loading): "…" at the right of its column */
static void unknown(const struct canvas *cv, int y, int *x, enum col_id c, enum role r)
{
	char t[8];
	int w = columns[c].width, n = cv->utf8 ? 1 : 3; /* its columns on screen */

	unknown_cell(t, sizeof(t), cv->utf8);
	put_text(cv, y, *x, w - n, r, "", true);
	put_text(cv, y, *x + w - n, n, r, t, true);
	*x += w;
	if (*x < cv->cols)
		put_text(cv, y, (*x)++, 1, r, " ", false);
}

void draw_table(struct ui *u, int y, int rows)
{
	const struct model *m = u->m;
	enum col_id shown[COL_COUNT];
	int nshown = table_layout(u, shown), x = 0;
	for (int i = 0; i < nshown; i++) {
		enum col_id c = shown[i];
		int x0 = x;
		cell(&u->cv, y, &x, c, columns[c].title, strlen(columns[c].title),
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
		enum role role = i == v->sel ? ROLE_SELECTED : ROLE_ROW;
		x = 0;
		for (int k = 0; k < nshown; k++) {
			/* a leak suspect: its growth in the alert role */
			bool leak = row->leak && (shown[k] == COL_GROW || shown[k] == COL_GROW10);
			char text[1280];
			size_t len;
			if (loading && (columns[shown[k]].needs & NEED_BPF)) {
				unknown(&u->cv, y + 1 + r, &x, shown[k], role);
				continue;
			}
			if (shown[k] == COL_CMD)
				len = cmd_cell(row, text, sizeof(text), u->cv.utf8, u->cv.cols - x);
			else
				len = cell_text(row, shown[k], text, sizeof(text), u->cv.utf8);
			cell(&u->cv, y + 1 + r, &x, shown[k], text, len, leak ? ROLE_ALERT : role);
		}
	}
}
