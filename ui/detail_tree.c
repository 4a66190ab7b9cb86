/* The Stacks tab as a call tree: the nodes dd_tree_build makes of the stacks, a line each,
 * the children of a node indented below it unless it is folded. Folds and the selection
 * are kept by node key, so that they stay where they were as the tree is built again at
 * every refresh. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detail_cli.h"
#include "detail_screen.h"
#include "text.h"
#include "util.h"

static struct detail_view *const v = &detail_view;

static size_t *vis; /* the nodes shown, in order: those under no folded node */
static size_t nvis, vis_cap;

static bool folded(size_t i)
{
	for (size_t k = 0; k < v->nfolds; k++)
		if (v->folds[k] == v->t.nodes[i].key)
			return true;
	return false;
}

static void set_fold(size_t i, bool fold)
{
	uint64_t key = v->t.nodes[i].key;

	for (size_t k = 0; k < v->nfolds; k++)
		if (v->folds[k] == key) {
			if (!fold)
				v->folds[k] = v->folds[--v->nfolds];
			return;
		}
	if (fold) {
		v->folds = xgrow(v->folds, v->nfolds, &v->fold_cap, sizeof(*v->folds), 16);
		v->folds[v->nfolds++] = key;
	}
}

/* The rows shown; the selection moved up to the folded node that hides it, if one does */
static void rows_shown(void)
{
	nvis = 0;
	for (size_t i = 0; i < v->t.n;) {
		vis = xgrow(vis, nvis, &vis_cap, sizeof(*vis), 64);
		vis[nvis++] = i;
		if (v->tsel > i && v->tsel < v->t.nodes[i].end && folded(i))
			v->tsel = i;
		i = folded(i) ? v->t.nodes[i].end : i + 1;
	}
	if (v->t.n)
		v->tsel_key = v->t.nodes[v->tsel].key;
}

static size_t row_of_sel(void)
{
	for (size_t r = 0; r < nvis; r++)
		if (vis[r] == v->tsel)
			return r;
	return 0;
}

void tree_rebuild(void)
{
	size_t old = v->tsel;

	dd_tree_build(v->d->stacks, v->d->nstacks, &v->t);
	v->tsel = v->t.n ? (old < v->t.n ? old : v->t.n - 1) : 0;
	for (size_t i = 0; i < v->t.n; i++)
		if (v->t.nodes[i].key == v->tsel_key) {
			v->tsel = i;
			break;
		}
	rows_shown();
}

void tree_toggle(void)
{
	v->tree = !v->tree;
	if (!v->tree) { /* the list, on the selected node's stack */
		if (v->tsel < v->t.n && v->t.nodes[v->tsel].stack != DD_NO_STACK)
			v->sel[SEC_STACKS] = v->t.nodes[v->tsel].stack;
		dd_tree_free(&v->t);
		return;
	}
	v->tsel_key = 0;
	v->tsel = 0;
	tree_rebuild();
	/* on the root of the selected stack's kind */
	for (size_t i = 0; v->d->nstacks && i < v->t.n; i = v->t.nodes[i].end)
		if (v->t.nodes[i].kind == v->d->stacks[v->sel[SEC_STACKS]].kind)
			v->tsel = i;
	v->ttop = 0;
	rows_shown();
}

void tree_move(long delta)
{
	long r = (long)row_of_sel() + delta;

	if (!nvis)
		return;
	if (r >= (long)nvis)
		r = (long)nvis - 1;
	if (r < 0)
		r = 0;
	v->tsel = vis[r];
	v->tsel_key = v->t.nodes[v->tsel].key;
}

void tree_fold(bool fold)
{
	if (!v->t.n)
		return;
	const struct dd_node *n = &v->t.nodes[v->tsel];

	if (fold && (folded(v->tsel) || !n->nchildren)) { /* then to its parent */
		if (n->parent != DD_NO_STACK)
			v->tsel = n->parent;
	} else if (!fold && n->nchildren && !folded(v->tsel)) { /* then to its first child */
		v->tsel++;
	} else if (n->nchildren) {
		set_fold(v->tsel, fold);
	}
	rows_shown();
}

bool tree_enter(void)
{
	if (!v->t.n)
		return false;
	const struct dd_node *n = &v->t.nodes[v->tsel];

	if (n->nchildren) {
		set_fold(v->tsel, !folded(v->tsel));
		rows_shown();
		return false;
	}
	if (n->stack == DD_NO_STACK)
		return false;
	v->sel[SEC_STACKS] = n->stack;
	return true;
}

void tree_done(void)
{
	dd_tree_free(&v->t);
	free(v->folds);
	free(vis);
	v->folds = NULL;
	vis = NULL;
	v->nfolds = v->fold_cap = nvis = vis_cap = 0;
}

/* line cut to cols columns, its last one an ellipsis where it was cut */
static void fit(char *line, int cols, bool utf8)
{
	int c = 0;

	for (char *p = line; *p; p++) {
		if (utf8 && ((unsigned char)*p & 0xc0) == 0x80)
			continue;
		if (++c == cols && text_cols(p, utf8) > 1) {
			strcpy(p, utf8 ? "\xe2\x80\xa6" : ">");
			return;
		}
	}
}

static void node_name(const struct dd_node *n, char *buf, size_t size, bool utf8)
{
	char name[SYM_NAME_LEN * 4 + 32];

	if (n->type == DD_NODE_KIND) {
		snprintf(buf, size, "[%s]", stack_kind_names[n->kind]);
		return;
	}
	if (n->type == DD_NODE_TRUNC) {
		snprintf(buf, size, "[truncated] (the walk was cut: outer frames unknown)");
		return;
	}
	dd_frame_name(n->frame, name, sizeof(name), utf8);
	snprintf(buf, size, "%s%s%s", name, n->frame->inlined ? " (inlined)" : "",
		 n->frame->kernel ? " [kernel]" : "");
}

void draw_tree(struct ui *u, int y, int rows)
{
	char line[2400], name[SYM_NAME_LEN * 4 + 80], count[32], self[32];
	int cols = u->cv.cols, pre = 30; /* the columns before the name */
	int cap = (cols - pre - 24) / 2; /* deeper levels no further right */

	snprintf(line, sizeof(line), "%6s %10s %10s  %s", "SHARE", "COUNT", "SELF",
		 "CALL TREE (outermost first)");
	put_text(&u->cv, y, 0, cols, ROLE_TABLE_HEADER, line, true);
	if (!v->t.n)
		put_text(&u->cv, y + 1, 0, cols, ROLE_ROW_DIM,
			 "no page faults or brk/mmap/munmap calls since the view opened", true);
	rows_shown();
	size_t sel = row_of_sel();

	if (rows < 1)
		rows = 1;
	if (sel < v->ttop)
		v->ttop = sel;
	else if (sel >= v->ttop + (size_t)rows)
		v->ttop = sel - (size_t)rows + 1;
	for (int r = 0; r < rows && v->ttop + (size_t)r < nvis; r++) {
		size_t i = vis[v->ttop + (size_t)r];
		const struct dd_node *n = &v->t.nodes[i];
		const char *tilde = stack_kind_fault(n->kind) || n->estimated ? "~" : "";
		int depth = n->depth, ind = depth < cap ? depth : cap > 0 ? cap : 0;
		char deep[16] = "";

		snprintf(count, sizeof(count), "%s%" PRIu64, tilde, n->count);
		if (n->self)
			snprintf(self, sizeof(self), "%s%" PRIu64, tilde, n->self);
		else
			snprintf(self, sizeof(self), "-");
		if (depth > ind)
			snprintf(deep, sizeof(deep), "%d:", depth);
		node_name(n, name, sizeof(name), u->cv.utf8);
		snprintf(line, sizeof(line), "%5.1f%% %10s %10s  %*s%s%s %s", n->share, count, self,
			 2 * ind, "", deep,
			 !n->nchildren ? " "
			 : folded(i)   ? (u->cv.utf8 ? "\xe2\x96\xb8" : "+")
				       : (u->cv.utf8 ? "\xe2\x96\xbe" : "-"),
			 name);
		fit(line, cols, u->cv.utf8);
		put_text(&u->cv, y + 1 + r, 0, cols,
			 i == v->tsel			? ROLE_SELECTED
			 : n->type == DD_NODE_KIND	? ROLE_VALUE
			 : n->frame && n->frame->kernel ? ROLE_ROW_DIM
							: ROLE_ROW,
			 line, true);
	}
}
