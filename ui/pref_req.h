/* The one place the view changes struct prefs: what a key asked for (struct pref_req). */
#ifndef MEMTOP_PREF_REQ_H
#define MEMTOP_PREF_REQ_H

#include "screen.h"

/* A table's preferences: its sort column, order, tree (NULL: it has none) and filter */
struct table_prefs {
	int *sort;
	bool *invert, *tree;
	char *filter;
	size_t filter_size;
};

struct table_prefs table_prefs(struct prefs *p, enum table_id tab);

/* Applies r to u->prefs; true where the tables' rows must be chosen again (the graph pane
 * took or gave back lines) */
bool pref_req_apply(struct ui *u, const struct pref_req *r);

/* The requests the screens make */
struct pref_req pref_sort(enum table_id tab, int col);
struct pref_req pref_op(enum table_id tab, enum pref_op op);
struct pref_req pref_text(enum table_id tab, const char *text);

#endif
