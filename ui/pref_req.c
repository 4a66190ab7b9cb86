/* The preference changes the keys ask for, applied to struct prefs in one place. */
#include "pref_req.h"

#include <stdio.h>

#include "screen.h"

struct pref_req pref_sort(bool cg, int col)
{
	return (struct pref_req){.op = PO_SORT, .cg = cg, .col = col};
}

struct pref_req pref_op(bool cg, enum pref_op op)
{
	return (struct pref_req){.op = op, .cg = cg};
}

struct pref_req pref_text(bool cg, const char *text)
{
	struct pref_req r = {.op = PO_FILTER, .cg = cg};

	snprintf(r.text, sizeof(r.text), "%s", text);
	return r;
}

/* A table's sort: the column, the order, the tree */
struct table_prefs {
	int *sort;
	bool *invert, *tree;
	char *filter;
	size_t filter_size;
};

static struct table_prefs table_prefs(struct prefs *p, bool cg)
{
	if (cg)
		return (struct table_prefs){(int *)&p->cg.sort, &p->cg.invert, &p->cg.tree,
					    p->cg.filter, sizeof(p->cg.filter)};
	return (struct table_prefs){(int *)&p->sort, &p->invert, &p->tree, p->filter.text,
				    sizeof(p->filter.text)};
}

bool pref_req_apply(struct ui *u, const struct pref_req *r)
{
	struct prefs *p = u->prefs;
	struct table_prefs t = table_prefs(p, r->cg);

	switch (r->op) {
	case PO_NONE:
		break;
	case PO_SORT:
		*t.sort = r->col;
		break;
	case PO_SORT_BY:
		*t.invert = *t.sort == r->col && !*t.invert;
		*t.sort = r->col;
		break;
	case PO_INVERT:
		*t.invert = !*t.invert;
		break;
	case PO_TREE:
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
		p->cols = r->cols;
		break;
	case PO_GRAPHS:
		p->graphs = !p->graphs;
		return true; /* the table's rows changed */
	case PO_CGROUP:
		p->filter.cgroup[0] = '\0';
		break;
	}
	return false;
}
