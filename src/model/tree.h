/* The tree view's row order. */
#ifndef MEMTOP_TREE_H
#define MEMTOP_TREE_H

#include <stddef.h>

#include "model.h"

/* Reorders rows (in sort order) so that each follows its parent, depth first, siblings
 * in sort order; sets each row's depth, last and more. The rows below a process of folds
 * (nfolds of them, by pid and start time) are left out, and it is marked folded. Returns
 * the rows kept. */
size_t tree_order(struct row **rows, size_t n, const struct proc_fold *folds, size_t nfolds);

#endif
