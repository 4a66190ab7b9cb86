/* The cgroup screen: the header, then the memory cgroups as a tree (folded where asked) or
 * a flat list, one row per cgroup with the columns of the cgroup column table, the path
 * first. Its sort picker (F6) is cgsort.c. */
#include "cgroups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgcells.h"
#include "draw_header.h"
#include "mouse.h"
#include "parse.h"
#include "prompt.h"
#include "text.h"
#include "util.h"

#define CTRL(c) ((c)&0x1f)

enum action {
	CG_UP = 1,
	CG_DOWN,
	CG_PGUP,
	CG_PGDN,
	CG_HOME,
	CG_END,
	CG_SORT_PREV,
	CG_SORT_NEXT,
	CG_SORT_MENU,
	CG_SORT_USAGE,
	CG_INVERT,
	CG_TREE,
	CG_FOLD,
	CG_UNFOLD,
	CG_FILTER,
	CG_PROCS,
	CG_PAUSE,
	CG_DELAY,
	CG_HELP,
	CG_OOM_ACK,
	CG_REDRAW,
	CG_THEME,
	CG_BACK,
};

static const struct binding bindings[] = {
	{CG_UP, {KEY_UP, 0}, "Up", "select the cgroup above"},
	{CG_DOWN, {KEY_DOWN, 0}, "Down", "select the cgroup below"},
	{CG_PGUP, {KEY_PPAGE, 0}, "PgUp", "one page up"},
	{CG_PGDN, {KEY_NPAGE, 0}, "PgDn", "one page down"},
	{CG_HOME, {KEY_HOME, 0}, "Home", "first cgroup"},
	{CG_END, {KEY_END, 0}, "End", "last cgroup"},
	{CG_SORT_PREV, {'<', ',', 0}, "<", "sort by the column to the left"},
	{CG_SORT_NEXT, {'>', '.', 0}, ">", "sort by the column to the right"},
	{CG_SORT_MENU, {KEY_F(6), 0}, "F6", "choose the sort column"},
	{CG_SORT_USAGE, {'M', 0}, "M", "sort by usage"},
	{CG_INVERT, {'I', 0}, "I", "invert the sort order"},
	{CG_TREE, {'t', KEY_F(5), 0}, "t F5", "tree: each cgroup under its parent, or a flat list"},
	{CG_FOLD, {'-', KEY_LEFT, 0}, "- Left", "fold the selected cgroup's subtree (tree)"},
	{CG_UNFOLD, {'+', KEY_RIGHT, 0}, "+ Right", "unfold it"},
	{CG_FILTER, {'\\', KEY_F(4), 0}, "\\ F4", "filter by a substring of the path"},
	{CG_PROCS, {'\n', '\r', KEY_ENTER, 0}, "Enter", "the processes of the selected cgroup"},
	{CG_PAUSE, {'Z', ' ', 0}, "Z Space", "pause or resume refreshing"},
	{CG_DELAY, {'d', 's', 0}, "d s", "change the refresh interval"},
	{CG_HELP, {'h', '?', KEY_F(1), 0}, "h ? F1", "this help"},
	{CG_OOM_ACK, {'a', 0}, "a", "acknowledge the OOM-kill alert"},
	{CG_REDRAW, {CTRL('l'), 0}, "^L", "redraw the screen"},
	{CG_THEME, {'T', 0}, "T", "next theme: default, 256, light, mono"},
	{CG_BACK, {27, 'q', 'C', KEY_F(10)}, "Esc q C", "back to the process table"},
	{0, {0}, NULL, NULL},
};

/* ---- the rows shown ---- */

static bool is_folded(const struct cg_view *v, uint64_t id)
{
	for (size_t i = 0; i < v->nfolded; i++)
		if (v->folded[i] == id)
			return true;
	return false;
}

static void set_folded(struct cg_view *v, uint64_t id, bool fold)
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
static void update_visible(struct ui *u)
{
	struct cg_view *v = &u->cg;
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
		if (tree && v->nfolded && is_folded(v, r->c->id))
			while (j < n && u->cgm->rows[j].depth > r->depth)
				j++;
		v->vis[v->nvis] = i;
		v->hidden[v->nvis++] = j - i - 1;
		i = j;
	}
}

static const struct cg_row *shown_row(const struct ui *u, size_t i)
{
	return &u->cgm->rows[u->cg.vis[i]];
}

static int table_rows(const struct ui *u)
{
	int n = u->cv.rows - header_rows(u) - 2; /* column titles, bottom line */
	return n > 0 ? n : 0;
}

void cgroups_reselect(struct ui *u)
{
	struct cg_view *v = &u->cg;

	update_visible(u);
	if (!v->nvis) { /* not read now: the selection stays on its cgroup for when it is */
		v->sel = v->top = 0;
		return;
	}
	for (size_t i = 0; v->follow && i < v->nvis; i++) {
		if (shown_row(u, i)->c->id == v->sel_id) {
			v->sel = i;
			break;
		}
	}
	if (v->sel >= v->nvis)
		v->sel = v->nvis - 1;
	size_t page = (size_t)table_rows(u);
	if (v->sel < v->top)
		v->top = v->sel;
	else if (page && v->sel >= v->top + page)
		v->top = v->sel - page + 1;
	v->sel_id = shown_row(u, v->sel)->c->id;
}

const char *cgroups_selected(const struct ui *u)
{
	const struct cg_view *v = &u->cg;

	if (!u->cgm || v->sel >= v->nvis || v->vis[v->sel] >= u->cgm->nrows)
		return NULL;
	return shown_row(u, v->sel)->c->path;
}

unsigned cgroups_wanted(const struct ui *u)
{
	bool open = u->screen == SCREEN_CGROUPS || u->screen == SCREEN_CGSORT ||
		    (u->screen == SCREEN_HELP && u->help_back == SCREEN_CGROUPS);

	return open ? u->prefs->cg.cols | CGCOL_BIT(u->prefs->cg.sort) : 0;
}

void cgroups_free(struct ui *u)
{
	free(u->cg.folded);
	free(u->cg.vis);
	free(u->cg.hidden);
	memset(&u->cg, 0, sizeof(u->cg));
}

/* ---- the columns ---- */

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
 * cgroup version lacks (HIGH, MIN and PSI on v1) has none */
static bool has_values(const struct cg_model *cgm, enum cgcol_id c)
{
	if (!cgm || !cgm->nall || cg_columns[c].kind == KIND_SHARE)
		return true;
	for (size_t i = 0; i < cgm->nall; i++)
		if (cgm->all[i].c->valid & CGCOL_BIT(c))
			return true;
	return false;
}

/* The numeric columns shown, in the table's order, and the path's width before them */
struct layout {
	int n;
	enum cgcol_id col[CGCOL_COUNT];
	int path_w;
};

/* Leaves the path 16 columns (24 in the tree): drops the highest `drop` first; the path
 * is as wide as the widest shown, up to the rest of the line */
static void layout_of(const struct ui *u, struct layout *l)
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
			     cg_columns[l->col[i]].drop > cg_columns[l->col[worst]].drop))
				worst = i;
		if (worst < 0)
			break;
		width -= cg_columns[l->col[worst]].width + 1;
		memmove(l->col + worst, l->col + worst + 1,
			(size_t)(l->n - worst - 1) * sizeof(*l->col));
		l->n--;
	}
	for (size_t i = 0; i < u->cg.nvis; i++) {
		char text[1200];
		cg_path_cell(shown_row(u, i), u->prefs->cg.tree, u->cg.hidden[i], text,
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

/* A number of len bytes to the right of its w columns, its last digits where wider */
static void put_number(const struct canvas *cv, int y, int x, int w, enum role r, const char *t,
		       size_t len)
{
	char buf[64];
	size_t pad = len < (size_t)w ? (size_t)w - len : 0;

	if (w <= 0 || (size_t)w >= sizeof(buf))
		return;
	memset(buf, ' ', pad);
	memcpy(buf + pad, t + len - ((size_t)w - pad), (size_t)w - pad);
	buf[w] = '\0';
	put_text(cv, y, x, w + 1 <= cv->cols - x ? w + 1 : cv->cols - x, r, buf, true);
}

static void draw_titles(struct ui *u, int y, const struct layout *l)
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
		put_number(cv, y, x, col->width, r, col->title, strlen(col->title));
		map_title(u, y, x, col->width, l->col[k]);
		x += col->width;
	}
}

/* Selected, else an alert (at its limit, or an OOM kill lately), else dim where removed */
static enum role row_role(const struct ui *u, size_t i)
{
	const struct cg_row *r = shown_row(u, i);

	if (i == u->cg.sel)
		return ROLE_SELECTED;
	if (cg_row_alert(r))
		return ROLE_ALERT;
	return r->c->removed ? ROLE_ROW_DIM : ROLE_ROW;
}

static void draw_row(struct ui *u, int y, const struct layout *l, size_t i)
{
	const struct canvas *cv = &u->cv;
	const struct cg_row *r = shown_row(u, i);
	enum role role = row_role(u, i);
	char text[1200];
	int x = l->path_w;

	cg_path_cell(r, u->prefs->cg.tree, u->cg.hidden[i], text, sizeof(text), cv->utf8,
		     l->path_w);
	put_text(cv, y, 0, l->path_w, role, text, true);
	for (int k = 0; k < l->n && x < cv->cols; k++) {
		size_t len = cg_cell_text(r, l->col[k], text, sizeof(text), cv->utf8);
		put_text(cv, y, x++, 1, role, " ", false);
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

static void draw_bottom(struct ui *u)
{
	static const struct keybar_item keys[] = {
		{"Enter", "Procs", '\n'}, {"F4", "Filter", KEY_F(4)}, {"F5", "Tree", KEY_F(5)},
		{"-", "Fold", '-'},	  {"+", "Unfold", '+'},	      {"F6", "SortBy", KEY_F(6)},
		{"Esc", "Back", 27},
	};
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
	x = draw_keybar(u, y, keys, (int)ARRAY_SIZE(keys));
	if (u->prefs->cg.filter[0] && x < cv->cols) {
		char f[160], esc[140];
		escape_display(u->prefs->cg.filter, esc, sizeof(esc), cv->utf8);
		snprintf(f, sizeof(f), " filter: %s", esc);
		put_text(cv, y, x, cv->cols - x, ROLE_WARNING, f, false);
	}
}

static void draw(struct ui *u)
{
	struct layout l;
	int y = header_rows(u), rows = table_rows(u);

	cgroups_reselect(u);
	draw_header(u);
	layout_of(u, &l);
	draw_titles(u, y, &l);
	map_rows(u, y + 1, rows, u->cg.top, u->cg.nvis);
	for (int r = 0; r < rows && u->cg.top + (size_t)r < u->cg.nvis; r++)
		draw_row(u, y + 1 + r, &l, u->cg.top + (size_t)r);
	if (!u->cg.nvis && rows > 0)
		put_text(&u->cv, y + 1, 0, u->cv.cols, ROLE_ROW_DIM, empty_text(u), false);
	draw_bottom(u);
}

/* ---- keys ---- */

static void move_sel(struct ui *u, long delta)
{
	struct cg_view *v = &u->cg;
	long s = (long)v->sel + delta;

	if (!v->nvis)
		return;
	if (s < 0)
		s = 0;
	if (s >= (long)v->nvis)
		s = (long)v->nvis - 1;
	v->follow = true;
	v->sel = (size_t)s;
	v->sel_id = shown_row(u, v->sel)->c->id;
	cgroups_reselect(u);
}

/* The path, then the columns shown: what < and > step through */
static void sort_step(struct ui *u, int dir)
{
	struct layout l;
	enum cgcol_id order[CGCOL_COUNT];
	int n = 1, i = 0;

	layout_of(u, &l);
	order[0] = CGCOL_PATH;
	for (int k = 0; k < l.n; k++)
		order[n++] = l.col[k];
	while (i < n && order[i] != u->prefs->cg.sort)
		i++;
	i = i == n ? 0 : (i + dir + n) % n;
	u->prefs->cg.sort = order[i];
}

int cgroups_sortable(const struct ui *u, enum cgcol_id out[CGCOL_COUNT])
{
	int n = 0;

	for (int c = 0; c < CGCOL_COUNT; c++)
		if (c == CGCOL_PATH ||
		    ((u->prefs->cg.cols & CGCOL_BIT(c)) && !(needs_bpf(c) && !bpf_on(u))))
			out[n++] = (enum cgcol_id)c;
	return n;
}

static void fold(struct ui *u, bool on)
{
	struct cg_view *v = &u->cg;

	if (!u->prefs->cg.tree) {
		snprintf(u->message, sizeof(u->message), "folding needs the tree (t)");
		return;
	}
	if (v->sel >= v->nvis)
		return;
	const struct cg_row *r = shown_row(u, v->sel);
	size_t next = v->vis[v->sel] + 1;
	bool children = next < u->cgm->nrows && u->cgm->rows[next].depth > r->depth;
	if (on && !children)
		return;
	set_folded(v, r->c->id, on);
	v->follow = true;
	v->sel_id = r->c->id;
	cgroups_reselect(u);
}

static unsigned act(struct ui *u, int a)
{
	struct cg_view *v = &u->cg;
	long page = table_rows(u);

	u->message[0] = '\0';
	update_visible(u);
	switch ((enum action)a) {
	case CG_UP:
		move_sel(u, -1);
		break;
	case CG_DOWN:
		move_sel(u, 1);
		break;
	case CG_PGUP:
		move_sel(u, -page);
		break;
	case CG_PGDN:
		move_sel(u, page);
		break;
	case CG_HOME:
		move_sel(u, -(long)v->nvis);
		v->follow = false;
		break;
	case CG_END:
		move_sel(u, (long)v->nvis);
		break;
	case CG_SORT_PREV:
		sort_step(u, -1);
		return REACT_RESORT;
	case CG_SORT_NEXT:
		sort_step(u, 1);
		return REACT_RESORT;
	case CG_SORT_MENU: {
		enum cgcol_id cols[CGCOL_COUNT];
		int n = cgroups_sortable(u, cols);
		v->sort_menu_sel = 0;
		for (int i = 0; i < n; i++)
			if (cols[i] == u->prefs->cg.sort)
				v->sort_menu_sel = i;
		u->screen = SCREEN_CGSORT;
		break;
	}
	case CG_SORT_USAGE:
		u->prefs->cg.sort = CGCOL_USAGE;
		return REACT_RESORT;
	case CG_INVERT:
		u->prefs->cg.invert = !u->prefs->cg.invert;
		return REACT_RESORT;
	case CG_TREE:
		u->prefs->cg.tree = !u->prefs->cg.tree;
		return REACT_RESORT;
	case CG_FOLD:
	case CG_UNFOLD:
		fold(u, a == CG_FOLD);
		break;
	case CG_FILTER:
		prompt_open(&u->prompt, PROMPT_FILTER, u->prefs->cg.filter);
		break;
	case CG_PROCS:
		if (!cgroups_selected(u)) {
			snprintf(u->message, sizeof(u->message), "no cgroup selected");
			break;
		}
		v->procs = true;
		u->screen = SCREEN_MAIN;
		return REACT_CGROUP_PROCS;
	case CG_PAUSE:
		u->paused = !u->paused;
		return REACT_PAUSE;
	case CG_DELAY: {
		char cur[32];
		snprintf(cur, sizeof(cur), "%g", u->prefs->delay);
		prompt_open(&u->prompt, PROMPT_DELAY, cur);
		break;
	}
	case CG_HELP:
		u->help_back = SCREEN_CGROUPS;
		u->screen = SCREEN_HELP;
		u->pane_top = 0;
		break;
	case CG_OOM_ACK:
		u->oom_acked = u->m->oom_live;
		break;
	case CG_REDRAW:
		return REACT_REDRAW;
	case CG_THEME:
		return REACT_THEME;
	case CG_BACK:
		u->screen = SCREEN_MAIN;
		break;
	}
	return REACT_NONE;
}

/* The filter narrows the rows as it is typed; Esc clears it. The other prompts (the
 * interval, a replay's time) are the main screen's. */
static unsigned prompt_key(struct ui *u, wint_t ch, bool is_key)
{
	char text[128];

	if (u->prompt.kind != PROMPT_FILTER)
		return u->screens[SCREEN_MAIN]->prompt(u, ch, is_key);
	enum prompt_result r = prompt_edit(&u->prompt, ch, is_key);
	prompt_text(&u->prompt, text, sizeof(text));
	switch (r) {
	case PROMPT_CANCEL:
		u->prefs->cg.filter[0] = '\0';
		return REACT_RESORT;
	case PROMPT_EDITED:
		u->message[0] = '\0';
		snprintf(u->prefs->cg.filter, sizeof(u->prefs->cg.filter), "%s", text);
		return REACT_RESORT;
	default:
		return REACT_NONE;
	}
}

/* ---- the mouse ---- */

static unsigned sort_by(struct ui *u, enum cgcol_id col)
{
	struct cg_prefs *p = &u->prefs->cg;

	if (p->sort == col) {
		p->invert = !p->invert;
	} else {
		p->sort = col;
		p->invert = false;
	}
	u->message[0] = '\0';
	return REACT_RESORT;
}

/* A column title sorts by it (again: inverts), a row is selected, the wheel scrolls */
static unsigned mouse(struct ui *u, const struct mouse_hit *h)
{
	struct cg_view *v = &u->cg;
	size_t i;

	if (h->kind == MOUSE_TITLE)
		return sort_by(u, (enum cgcol_id)h->col);
	if (!mouse_row(h, &u->map, &v->top, &v->sel, v->nvis, &i) || !u->cgm ||
	    v->vis[i] >= u->cgm->nrows)
		return REACT_NONE;
	u->message[0] = '\0';
	v->follow = true;
	v->sel = i;
	v->sel_id = u->cgm->rows[v->vis[i]].c->id;
	cgroups_reselect(u);
	return REACT_NONE;
}

const struct screen screen_cgroups = {
	.title = "Cgroups (C)",
	.keys = bindings,
	.draw = draw,
	.act = act,
	.prompt = prompt_key,
	.mouse = mouse,
};
