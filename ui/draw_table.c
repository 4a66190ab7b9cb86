#include <string.h>

#include "cells.h"
#include "tui_int.h"

/* Chooses the columns that fit, leaving the command 10 columns (24 in the tree view):
 * drops the highest `drop` first; BPF columns only when their counters are on. */
void layout_columns(struct tui *t)
{
	const struct snapshot *s = model_current(t->m);
	bool bpf = s && s->bpf.enabled;
	enum col_id cand[COL_COUNT];
	int n = 0, width = 0;
	for (int c = 0; c < COL_COUNT; c++) {
		unsigned needs = columns[c].needs;
		if (!(t->m->cols & COL_BIT(c)) ||
		    (!bpf && (needs & (NEED_BPF_SWAPIN | NEED_BPF_RECLAIM))))
			continue;
		cand[n++] = (enum col_id)c;
		width += columns[c].width + 1;
	}
	const int min_cmd = t->m->tree ? 24 : 10; /* the tree's lines need room */
	while (width + min_cmd > t->cols) {
		int worst = -1;
		for (int i = 0; i < n; i++)
			if (columns[cand[i]].drop &&
			    (worst < 0 || columns[cand[i]].drop > columns[cand[worst]].drop))
				worst = i;
		if (worst < 0)
			break;
		width -= columns[cand[worst]].width + 1;
		memmove(cand + worst, cand + worst + 1, (size_t)(n - worst - 1) * sizeof(*cand));
		n--;
	}
	memcpy(t->shown, cand, (size_t)n * sizeof(*cand));
	t->nshown = n;
}

static void cell(struct tui *t, int y, int *x, enum col_id c, const char *text, enum role r)
{
	const struct column *col = &columns[c];
	int w = col->width ? col->width : t->cols - *x;
	if (w <= 0)
		return;
	char buf[1024];
	if (col->unit != UNIT_TEXT && col->width) {
		int len = (int)strlen(text);
		snprintf(buf, sizeof(buf), "%*s", w, len > w ? text + len - w : text);
		text = buf;
	}
	put_text(t, y, *x, w, r, text, true);
	*x += w;
	if (col->width && *x < t->cols)
		put_text(t, y, (*x)++, 1, r, " ", false);
}

void draw_table(struct tui *t, int y)
{
	const struct model *m = t->m;
	int x = 0;
	for (int i = 0; i < t->nshown; i++) {
		enum col_id c = t->shown[i];
		cell(t, y, &x, c, columns[c].title,
		     c == m->sort ? ROLE_SORT_COLUMN : ROLE_TABLE_HEADER);
	}
	int rows = table_rows(t);
	t->nonscreen = 0;
	for (int r = 0; r < rows && t->top + (size_t)r < m->nrows; r++) {
		size_t i = t->top + (size_t)r;
		const struct row *row = &m->rows[i];
		enum role role = i == t->sel ? ROLE_SELECTED : ROLE_ROW;
		if (t->nonscreen < MAX_ONSCREEN)
			t->onscreen[t->nonscreen++] = row->p->pid;
		x = 0;
		for (int k = 0; k < t->nshown; k++) {
			char text[1280];
			if (t->shown[k] == COL_CMD)
				cmd_cell(row, text, sizeof(text), t->utf8, t->cols - x);
			else
				cell_text(row, t->shown[k], text, sizeof(text), t->utf8);
			cell(t, y + 1 + r, &x, t->shown[k], text, role);
		}
	}
}
