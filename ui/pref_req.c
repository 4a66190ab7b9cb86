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
	}
	return false;
}
