/* The tree of memory cgroups from the cgroup iterator's records (bpf_cgroup_iter.h) instead of
 * the directories: each record's kernfs name and parent's id make the paths, depths and
 * order that the listing (cg_list, cgroup_list.h) gives. */
#ifndef MEMTOP_CGROUP_TREE_H
#define MEMTOP_CGROUP_TREE_H

#include <stddef.h>

#include "bpf/memtop.h"
#include "snapshot.h"

struct cg_tree; /* working arrays, kept from one refresh to the next */

struct cg_tree *cg_tree_new(void);
void cg_tree_free(struct cg_tree *t);

/* Appends to s the cgroups of the n records recs, a walk in pre-order whose first record
 * is the cgroup at hierarchy path root (the directory mounted), name(ctx, i) each one's
 * name (raw): path, id and depth, each after its parent and siblings by name (strcmp),
 * as cg_list lists them; a cgroup whose path would not fit PATH_MAX is left out with
 * those below it. Returns 0, or -1 where the records do not make such a tree (a name
 * missing or with a '/', a parent not before its child); then s is left as it was. */
int cg_tree_build(struct cg_tree *t, const struct mtb_cgroup_rec *recs, size_t n,
		  const char *(*name)(const void *ctx, size_t i), const void *ctx, const char *root,
		  struct snapshot *s);

#endif
