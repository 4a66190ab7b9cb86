/* The tree view's row order. */
#ifndef MEMTOP_TREE_H
#define MEMTOP_TREE_H

#include <stddef.h>

#include "model.h"

/* Reorders rows (in sort order) so that each follows its parent, depth first, siblings
 * in sort order; sets each row's depth, last and more. */
void tree_order(struct row **rows, size_t n);

#endif
