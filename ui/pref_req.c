/* The preference changes the keys ask for, applied to struct prefs in one place. */
#include "pref_req.h"

#include <stdio.h>
#include <string.h>

#include "screen.h"

struct pref_req pref_sort(enum table_id tab, int col)
{
	return (struct pref_req){.op = PO_SORT, .tab = tab, .col = col};
}

struct pref_req pref_op(enum table_id tab, enum pref_op op)
{
	return (struct pref_req){.op = op, .tab = tab};
}

struct pref_req pref_text(enum table_id tab, const char *text)
{
	struct pref_req r = {.op = PO_FILTER, .tab = tab};

	snprintf(r.text, sizeof(r.text), "%s", text);
	return r;
}

struct table_prefs table_prefs(struct prefs *p, enum table_id tab)
{
	switch (tab) {
	case TAB_CGROUPS:
		return (struct table_prefs){(int *)&p->cg.sort, &p->cg.invert, &p->cg.tree,
					    p->cg.filter, sizeof(p->cg.filter)};
	case TAB_SLABS:
		return (struct table_prefs){(int *)&p->slab.sort, &p->slab.invert, NULL,
					    p->slab.filter, sizeof(p->slab.filter)};
	case TAB_USERS:
		return (struct table_prefs){(int *)&p->users.sort, &p->users.invert, NULL,
					    p->users.filter, sizeof(p->users.filter)};
	case TAB_PROCS:
		break;
	}
	return (struct table_prefs){(int *)&p->sort, &p->invert, &p->tree, p->filter.text,
				    sizeof(p->filter.text)};
}

/* The folds of processes that are gone dropped (where the table of folds is full) */
static void folds_prune(struct prefs *p, const struct model *m)
{
	size_t kept = 0;

	for (size_t i = 0; i < p->nfolds; i++) {
		const struct snapshot *s = model_current(m);
		const struct proc_sample *q = s ? snapshot_find(s, 0, p->folds[i].pid) : NULL;
		if (q && q->start_ticks == p->folds[i].start_ticks)
			p->folds[kept++] = p->folds[i];
	}
	p->nfolds = kept;
}

/* pid's fold set (on) or undone */
static void fold_set(struct ui *u, int32_t pid, uint64_t start, bool on)
{
	struct prefs *p = u->prefs;

	for (size_t i = 0; i < p->nfolds; i++) {
		if (p->folds[i].pid != pid || p->folds[i].start_ticks != start)
			continue;
		if (!on)
			p->folds[i] = p->folds[--p->nfolds];
		return;
	}
	if (!on)
		return;
	if (p->nfolds == MAX_FOLDS)
		folds_prune(p, u->m);
	if (p->nfolds < MAX_FOLDS)
		p->folds[p->nfolds++] = (struct proc_fold){pid, start};
}

/* Every fold undone; where there was none, every row with children (in the tree's order:
 * the next row is deeper) folded */
static void fold_all(struct ui *u)
{
	const struct model *m = u->m;

	if (u->prefs->nfolds) {
		u->prefs->nfolds = 0;
		return;
	}
	for (size_t k = 0; k + 1 < m->nrows; k++)
		if (m->rows[k + 1]->depth > m->rows[k]->depth)
			fold_set(u, m->rows[k]->p->pid, m->rows[k]->p->start_ticks, true);
}

bool pref_req_apply(struct ui *u, const struct pref_req *r)
{
	struct prefs *p = u->prefs;
	struct table_prefs t = table_prefs(p, r->tab);

	switch (r->op) {
	case PO_NONE:
		break;
	case PO_SORT: /* a column hidden is shown (the sort picker lists them all) */
		*t.sort = r->col;
		if (r->tab == TAB_PROCS)
			p->cols |= COL_BIT(r->col);
		else if (r->tab == TAB_CGROUPS)
			p->cg.cols |= CGCOL_BIT(r->col);
		break;
	case PO_SORT_BY:
		*t.invert = *t.sort == r->col && !*t.invert;
		*t.sort = r->col;
		break;
	case PO_INVERT:
		*t.invert = !*t.invert;
		break;
	case PO_TREE:
		if (t.tree)
			*t.tree = !*t.tree;
		break;
	case PO_FILTER:
		snprintf(t.filter, t.filter_size, "%s", r->text);
		break;
	case PO_KTHREADS:
		p->filter.hide_kthreads = !p->filter.hide_kthreads;
		break;
	case PO_USER:
		p->filter.by_user = r->on;
		if (r->on)
			p->filter.uid = r->uid;
		break;
	case PO_DELAY:
		p->delay = r->delay;
		break;
	case PO_COLS:
		if (r->tab == TAB_CGROUPS)
			p->cg.cols = r->cols;
		else
			p->cols = r->cols;
		break;
	case PO_ORDER:
		memcpy(p->order, r->order, sizeof(p->order));
		break;
	case PO_GRAPHS:
		p->graphs = !p->graphs;
		return true; /* the table's rows changed */
	case PO_CGROUP:
		p->filter.cgroup[0] = '\0';
		break;
	case PO_CLEAR:
		t.filter[0] = '\0';
		if (r->tab == TAB_PROCS)
			p->filter.cgroup[0] = '\0';
		break;
	case PO_FOLD:
		fold_set(u, r->pid, r->start_ticks, r->on);
		break;
	case PO_FOLD_ALL:
		fold_all(u);
		break;
	}
	return false;
}
