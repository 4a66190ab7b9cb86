/* A table's row order, for processes and cgroups alike: a stable sort on one integer key
 * (or text) per row with a tie-break, and the tree order of rows whose parents are known
 * by index. Each model makes the keys and the parents of its own rows. */
#ifndef MEMTOP_ORDER_H
#define MEMTOP_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What sorting compares, for each row that passes the filter: the sort column's value as
 * an integer that orders as the value does in the direction asked for (or its text), then
 * tie (a pid, a path's rank). Small, so that sorting moves 16 bytes a row, not the row. */
struct sort_item {
	union {
		uint64_t key;
		const char *text;
	};
	int32_t tie;
	uint32_t i; /* the row */
};

/* The key of value v sorted ascending (sign > 0) or descending: an integer that orders as
 * v does (-0 as 0; NaN as 0, which no figure is). UINT64_MAX is no value's: a row without
 * one that must come last. */
uint64_t order_key(double v, int sign);

/* Sorts a (n items) by key, or with text (sign 1 or -1, 0 for keys) by text, then by tie;
 * stable, with tmp as room. Returns a or tmp, whichever holds the result. */
struct sort_item *order_sort(struct sort_item *a, struct sort_item *tmp, size_t n, int text);
/* The rows of items (n of them, their i) in order_sort's order into out; for the small
 * tables (slab caches, users), which sort a fresh array each time. Out of memory: in the
 * order given. Returns n. */
size_t order_indexes(struct sort_item *items, size_t n, int text, size_t *out);

/* A row's place in the tree: depth below its root; whether it is its parent's last child
 * shown; bit d of more: its ancestor at depth d + 1 has later siblings */
struct tree_place {
	uint16_t depth;
	bool last;
	uint64_t more;
};

/* The tree order of n rows in sort order, parent[i] the index of row i's parent among
 * them (-1, or i itself: a root): each row after its parent, depth first, siblings in
 * sort order; a parent loop no root reaches is walked from its first row. out[k] is the
 * k-th row's index, place[i] row i's place. */
void tree_walk(const long *parent, size_t n, size_t *out, struct tree_place *place);

#endif
