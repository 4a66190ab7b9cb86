/* The memory cgroup reader's listing of the hierarchy's directories (cgroup_list.c). Part
 * of cgroup.h, which includes it. */
#ifndef MEMTOP_CGROUP_LIST_H
#define MEMTOP_CGROUP_LIST_H

#include "snapshot.h"

struct cg_reader;

/* Lists the cgroups of the hierarchy into s, which holds none yet: path, id, depth and
 * parent, no figures. */
void cg_list(struct cg_reader *r, struct snapshot *s);

#endif
