/* The listed cgroups of a snapshot by id (their cgroup id, or memcg id on v1), for the
 * lookups of many ids at once: the processes per cgroup (cgroup_nprocs.c) and the OOM
 * kills per cgroup (cgroup_kills.c). */
#ifndef MEMTOP_CGROUP_IDS_H
#define MEMTOP_CGROUP_IDS_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

struct cg_id_at;

struct cg_ids {
	struct cg_id_at *by_id; /* sorted by id */
	size_t n;
};

/* x for s->cgroups; free it with cg_ids_free */
void cg_ids_make(struct cg_ids *x, const struct snapshot *s);
/* The index in s->cgroups of the cgroup with id, or -1 */
long cg_ids_find(const struct cg_ids *x, uint64_t id);
void cg_ids_free(struct cg_ids *x);

#endif
