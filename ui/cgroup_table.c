/* The cgroup table's columns: which fit beside the path, the column titles and the rows,
 * and the columns the cgroups can be sorted by. */
#include <stdio.h>
#include <string.h>

#include "cgcells.h"
#include "cgroup_table.h"
#include "mouse.h"
#include "util.h"

struct cg_state cg_state;
static struct cg_state *const v = &cg_state;

/* ---- the rows shown ---- */

static bool is_folded(uint64_t id)
{
	for (size_t i = 0; i < v->nfolded; i++)
		if (v->folded[i] == id)
			return true;
	return false;
}

void cg_set_folded(uint64_t id, bool fold)
{
	for (size_t i = 0; i < v->nfolded; i++) {
		if (v->folded[i] != id)
			continue;
		if (!fold)
			v->folded[i] = v->folded[--v->nfolded];
		return;
	}
	if (!fold)
		return;
	if (v->nfolded == v->folded_cap) {
		v->folded_cap = v->folded_cap ? v->folded_cap * 2 : 16;
		v->folded = xrealloc(v->folded, v->folded_cap * sizeof(*v->folded));
	}
	v->folded[v->nfolded++] = id;
}

/* The model's rows in their order, less those below a folded cgroup in the tree */
void cg_update_visible(struct ui *u)
{
	size_t n = u->cgm ? u->cgm->nrows : 0;
	bool tree = u->prefs->cg.tree;

	if (v->vis_cap < n) {
		v->vis_cap = n;
		v->vis = xrealloc(v->vis, n * sizeof(*v->vis));
		v->hidden = xrealloc(v->hidden, n * sizeof(*v->hidden));
	}
	v->nvis = 0;
	for (size_t i = 0; i < n;) {
		const struct cg_row *r = &u->cgm->rows[i];
		size_t j = i + 1;
		if (tree && v->nfolded && is_folded(r->c->id))
			while (j < n && u->cgm->rows[j].depth > r->depth)
				j++;
		v->vis[v->nvis] = i;
		v->hidden[v->nvis++] = j - i - 1;
		i = j;
	}
}

const struct cg_row *cg_shown_row(const struct ui *u, size_t i)
{
	return &u->cgm->rows[v->vis[i]];
}

static bool bpf_on(const struct ui *u)
{
	const struct snapshot *s = model_current(u->m);
	return s && s->bpf.enabled;
}

static bool needs_bpf(enum cgcol_id c)
{
	return (cg_columns[c].needs & (CGNEED_BPF_OOM | CGNEED_BPF_RECLAIM)) != 0;
}

/* A figure some cgroup has (before the first read: every one); a column whose file this
 * cgroup version lacks (HIGH, MIN and PSI on v1) has none. The model's forecasts
 * (KIND_GROWTH: GROW/min, LIMIT-IN, VICTIM) are read from no file: their columns stay,
 * empty while no cgroup grows, so that the table does not change as growth starts. NAME
 * and RUNTIME show where some cgroup has a name. */
static bool has_values(const struct cg_model *cgm, enum cgcol_id c)
{
	if (!cgm || !cgm->nall || cg_columns[c].kind == KIND_SHARE ||
	    cg_columns[c].kind == KIND_GROWTH)
		return true;
	for (size_t i = 0; i < cgm->nall; i++)
		if (cg_columns[c].kind == KIND_TEXT ? cg_columns[c].text(cgm->all[i].c) != NULL
						    : (cgm->all[i].c->valid & CGCOL_BIT(c)) != 0)
			return true;
	return false;
}

/* Leaves the path 16 columns (24 in the tree): drops the highest `drop` first, of equals
 * the one furthest right (GROW/min and LIMIT-IN, the forecast, stay last of the drop-1
 * columns); the path is as wide as the widest shown, up to the rest of the line */
void cg_layout(const struct ui *u, struct cg_layout *l)
{
	int width = 0, longest = (int)strlen(cg_columns[CGCOL_PATH].title);
	const int min_path = u->prefs->cg.tree ? 24 : 16;

	l->n = 0;
	for (int c = 0; c < CGCOL_COUNT; c++) {
		if (c == CGCOL_PATH || !(u->prefs->cg.cols & CGCOL_BIT(c)) ||
		    (needs_bpf(c) && !bpf_on(u)) || !has_values(u->cgm, c))
			continue;
		l->col[l->n++] = (enum cgcol_id)c;
		width += cg_columns[c].width + 1;
	}
	while (width + min_path > u->cv.cols) {
		int worst = -1;
		for (int i = 0; i < l->n; i++)
			if (cg_columns[l->col[i]].drop &&
			    (worst < 0 ||
			     cg_columns[l->col[i]].drop >= cg_columns[l->col[worst]].drop))
				worst = i;
		if (worst < 0)
			break;
		width -= cg_columns[l->col[worst]].width + 1;
		memmove(l->col + worst, l->col + worst + 1,
			(size_t)(l->n - worst - 1) * sizeof(*l->col));
		l->n--;
	}
	for (size_t i = 0; i < cg_state.nvis; i++) {
		char text[1200];
		cg_path_cell(cg_shown_row(u, i), u->prefs->cg.tree, cg_state.hidden[i], text,
			     sizeof(text), u->cv.utf8, -1);
		int w = cg_text_cols(text, u->cv.utf8);
		if (w > longest)
			longest = w;
	}
	l->path_w = u->cv.cols - width;
	if (longest < l->path_w)
		l->path_w = longest;
	if (l->path_w < 1)
		l->path_w = 1;
}

static void draw_titles(struct ui *u, int y, const struct cg_layout *l)
{
	const struct canvas *cv = &u->cv;
	enum cgcol_id sort = u->prefs->cg.sort;
	int x = l->path_w;

	put_text(cv, y, 0, cv->cols, ROLE_TABLE_HEADER, "", true);
	put_text(cv, y, 0, l->path_w, sort == CGCOL_PATH ? ROLE_SORT_COLUMN : ROLE_TABLE_HEADER,
		 cg_columns[CGCOL_PATH].title, true);
	map_title(u, y, 0, l->path_w, CGCOL_PATH);
	for (int k = 0; k < l->n && x < cv->cols; k++) {
		const struct cg_column *col = &cg_columns[l->col[k]];
		enum role r = l->col[k] == sort ? ROLE_SORT_COLUMN : ROLE_TABLE_HEADER;
		put_text(cv, y, x++, 1, ROLE_TABLE_HEADER, " ", false);
		if (col->kind == KIND_TEXT)
			put_text(cv, y, x, col->width, r, col->title, true);
		else
			put_number(cv, y, x, col->width, r, col->title, strlen(col->title));
		map_title(u, y, x, col->width, l->col[k]);
		x += col->width;
	}
}

/* Selected, else an alert (at its limit, or an OOM kill lately), else dim where removed */
static enum role row_role(const struct ui *u, size_t i)
{
	const struct cg_row *r = cg_shown_row(u, i);

	if (i == cg_state.view.sel)
		return ROLE_SELECTED;
	if (cg_row_alert(r))
		return ROLE_ALERT;
	return r->c->removed ? ROLE_ROW_DIM : ROLE_ROW;
}

static void draw_row(struct ui *u, int y, const struct cg_layout *l, size_t i)
{
	const struct canvas *cv = &u->cv;
	const struct cg_row *r = cg_shown_row(u, i);
	enum role role = row_role(u, i);
	char text[1200];
	int x = l->path_w;

	cg_path_cell(r, u->prefs->cg.tree, cg_state.hidden[i], text, sizeof(text), cv->utf8,
		     l->path_w);
	put_text(cv, y, 0, l->path_w, role, text, true);
	for (int k = 0; k < l->n && x < cv->cols; k++) {
		size_t len = cg_cell_text(r, l->col[k], text, sizeof(text), cv->utf8);
		put_text(cv, y, x++, 1, role, " ", false);
		if (cg_columns[l->col[k]].kind == KIND_TEXT) /* text to the left, cut at its end */
			put_text(cv, y, x, cg_columns[l->col[k]].width, role, text, true);
		else
			put_number(cv, y, x, cg_columns[l->col[k]].width, role, text, len);
		x += cg_columns[l->col[k]].width;
	}
	if (x < cv->cols)
		put_text(cv, y, x, cv->cols - x, role, "", true);
}

/* Why no row is shown */
static const char *empty_text(const struct ui *u)
{
	const struct snapshot *s = model_current(u->m);

	if (s && !s->cg_version)
		return "No memory cgroup hierarchy is mounted (no cgroup memory controller "
		       "in /proc/self/mountinfo)";
	if (!u->cgm || !u->cgm->nall)
		return "Reading the memory cgroups...";
	return "No cgroup path holds the filter's text (\\ changes it, Esc in it clears it)";
}

int cgroups_sortable(const struct ui *u, int out[TABLE_COLS])
{
	int n = 0;

	for (int c = 0; c < CGCOL_COUNT; c++)
		if (!(needs_bpf(c) && !bpf_on(u)))
			out[n++] = c;
	return n;
}

/* The path, then the columns shown: what < and > step through */
int cgroups_steps(const struct ui *u, int out[TABLE_COLS])
{
	struct cg_layout l;

	cg_layout(u, &l);
	out[0] = CGCOL_PATH;
	for (int k = 0; k < l.n; k++)
		out[k + 1] = l.col[k];
	return l.n + 1;
}

void cg_table_draw(struct ui *u, int y, int rows)
{
	struct cg_layout l;
	const struct table_view *v = &cg_state.view;

	cg_layout(u, &l);
	draw_titles(u, y, &l);
	map_rows(u, y + 1, rows, v->top, cg_state.nvis);
	for (int r = 0; r < rows && v->top + (size_t)r < cg_state.nvis; r++)
		draw_row(u, y + 1 + r, &l, v->top + (size_t)r);
	if (!cg_state.nvis && rows > 0)
		put_text(&u->cv, y + 1, 0, u->cv.cols, ROLE_ROW_DIM, empty_text(u), false);
}
